import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  classifyHost,
  formatIPv4,
  parseIPv4,
  parseIPv6,
  type AddressClass,
} from "../../emulator/pipeline/address-policy.ts";

// The one host classifier behind every caller-supplied URL (vision image_url,
// webhook URLs). Hostile spellings of inward addresses must never come out
// public, whether handed over raw or as the URL parser normalises them.

/** The host as an area sees it: through the WHATWG URL parser, then classified. */
const viaUrl = (spelling: string) => classifyHost(new URL(`https://${spelling}/x`).hostname);

describe("a table of hostile spellings", () => {
  const TABLE: Array<[string, AddressClass, string]> = [
    // The tester's reports.
    ["[::ffff:127.0.0.1]", "loopback", "::ffff:7f00:1"],
    ["[::ffff:10.0.0.1]", "private", "::ffff:a00:1"],
    ["localhost.", "loopback", "localhost"],
    // IPv4 spellings of 127.0.0.1.
    ["127.0.0.1", "loopback", "127.0.0.1"],
    ["2130706433", "loopback", "127.0.0.1"],
    ["0x7f000001", "loopback", "127.0.0.1"],
    ["0X7F000001", "loopback", "127.0.0.1"],
    ["0177.0.0.1", "loopback", "127.0.0.1"],
    ["0177.0000.0000.0001", "loopback", "127.0.0.1"],
    ["0x7f.0x0.0x0.0x1", "loopback", "127.0.0.1"],
    ["127.1", "loopback", "127.0.0.1"],
    ["127.0.1", "loopback", "127.0.0.1"],
    ["0x7f.1", "loopback", "127.0.0.1"],
    ["017700000001", "loopback", "127.0.0.1"],
    ["127.0.0.1.", "loopback", "127.0.0.1"],
    ["１２７．０．０．１", "loopback", "127.0.0.1"],
    // Other IPv4 ranges.
    ["0.0.0.0", "unspecified", "0.0.0.0"],
    ["0", "unspecified", "0.0.0.0"],
    ["10.1.2.3", "private", "10.1.2.3"],
    ["167772161", "private", "10.0.0.1"],
    ["172.31.255.255", "private", "172.31.255.255"],
    ["192.168.0.1", "private", "192.168.0.1"],
    ["0xc0.0xa8.1", "private", "192.168.0.1"],
    ["100.64.0.1", "private", "100.64.0.1"],
    ["169.254.169.254", "link-local", "169.254.169.254"],
    ["0xa9fea9fe", "link-local", "169.254.169.254"],
    ["224.0.0.1", "multicast", "224.0.0.1"],
    ["255.255.255.255", "reserved", "255.255.255.255"],
    ["192.0.2.1", "reserved", "192.0.2.1"],
    ["198.18.0.1", "reserved", "198.18.0.1"],
    // IPv6.
    ["[::1]", "loopback", "::1"],
    ["[0:0:0:0:0:0:0:1]", "loopback", "::1"],
    ["[::]", "unspecified", "::"],
    ["[fc00::1]", "private", "fc00::1"],
    ["[fd12:3456::1]", "private", "fd12:3456::1"],
    ["[fe80::1]", "link-local", "fe80::1"],
    ["[febf::1]", "link-local", "febf::1"],
    ["[fec0::1]", "private", "fec0::1"],
    ["[ff02::1]", "multicast", "ff02::1"],
    ["[::ffff:7f00:1]", "loopback", "::ffff:7f00:1"],
    ["[::FFFF:7F00:1]", "loopback", "::ffff:7f00:1"],
    ["[0:0:0:0:0:ffff:127.0.0.1]", "loopback", "::ffff:7f00:1"],
    ["[::ffff:a9fe:a9fe]", "link-local", "::ffff:a9fe:a9fe"],
    ["[::ffff:0:127.0.0.1]", "loopback", "::ffff:0:7f00:1"],
    ["[::127.0.0.1]", "loopback", "::7f00:1"],
    ["[::10.0.0.1]", "private", "::a00:1"],
    ["[64:ff9b::127.0.0.1]", "loopback", "64:ff9b::7f00:1"],
    ["[64:ff9b::a9fe:a9fe]", "link-local", "64:ff9b::a9fe:a9fe"],
    ["[64:ff9b:1::1]", "private", "64:ff9b:1::1"],
    ["[2002:7f00:1::]", "loopback", "2002:7f00:1::"],
    ["[2002:c0a8:101::1]", "private", "2002:c0a8:101::1"],
    ["[2001:db8::1]", "reserved", "2001:db8::1"],
    ["[100::1]", "reserved", "100::1"],
    // Names.
    ["localhost", "loopback", "localhost"],
    ["LOCALHOST", "loopback", "localhost"],
    ["LocalHost.", "loopback", "localhost"],
    ["api.localhost", "loopback", "api.localhost"],
    ["a.b.localhost.", "loopback", "a.b.localhost"],
    ["ｌｏｃａｌｈｏｓｔ", "loopback", "localhost"],
    ["printer.local", "link-local", "printer.local"],
    ["db.internal", "private", "db.internal"],
    ["nas.home.arpa", "private", "nas.home.arpa"],
    ["localhost.localdomain", "private", "localhost.localdomain"],
    ["intranet", "private", "intranet"],
  ];

  it.each(TABLE)("%s → %s (%s), raw and through the URL parser", (spelling, cls, host) => {
    expect(classifyHost(spelling)).toMatchObject({ class: cls, host });
    expect(viaUrl(spelling)).toMatchObject({ class: cls, host });
  });

  it.each([
    ["images.emulator.test", "images.emulator.test"],
    ["Example.COM.", "example.com"],
    ["8.8.8.8", "8.8.8.8"],
    ["134744072", "8.8.8.8"],
    ["[2606:4700::1111]", "2606:4700::1111"],
    ["[::ffff:8.8.8.8]", "::ffff:808:808"],
    ["[64:ff9b::8.8.8.8]", "64:ff9b::808:808"],
    ["172.32.0.1", "172.32.0.1"],
    ["100.128.0.1", "100.128.0.1"],
  ])("%s is public", (spelling, host) => {
    expect(classifyHost(spelling)).toEqual({ host, kind: expect.any(String), class: "public", range: null });
  });

  it("anything that looks like an address but does not parse is reserved, never public", () => {
    for (const h of [
      "999.1.1.1",
      "1.2.3.4.5",
      "4294967296",
      "0x100000000",
      "08.0.0.1",
      "foo.0x1",
      "example.123",
      "1::2::3",
      "[:::1]",
      "[12345::]",
      "[1:2:3:4:5:6:7:8:9]",
      "[::1.2.3.256]",
      "a b.com",
    ])
      expect([h, classifyHost(h).class]).toEqual([h, "reserved"]);
  });
});

describe("parsers", () => {
  it("parseIPv4 follows inet_aton: the last part fills the remaining bytes", () => {
    expect(parseIPv4("1.2.3")).toBe(0x01020003);
    expect(parseIPv4("1.0x20304")).toBe(0x01020304);
    expect(parseIPv4("1.2.65536")).toBeNull();
    expect(parseIPv4("256.0.0.1")).toBeNull();
    expect(parseIPv4("0x")).toBe(0);
  });

  it("parseIPv6 expands ::, an IPv4 tail and drops a zone id", () => {
    expect(parseIPv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6("fe80::1%eth0")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("1:2:3:4:5:6:7::")).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
    expect(parseIPv6("1:2:3:4:5:6:7:8::")).toBeNull();
  });
});

describe("property: every IPv4 in an inward range is non-public in every spelling", () => {
  const RANGES: Array<[string, number, AddressClass]> = [
    ["127.0.0.0", 8, "loopback"],
    ["10.0.0.0", 8, "private"],
    ["172.16.0.0", 12, "private"],
    ["192.168.0.0", 16, "private"],
    ["169.254.0.0", 16, "link-local"],
    ["0.0.0.0", 8, "unspecified"],
    ["100.64.0.0", 10, "private"],
  ];
  const bytes = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const hex = (n: number) => n.toString(16);
  const g = (n: number) => [hex(n >>> 16), hex(n & 0xffff)];
  const part = (v: number, radix: 0 | 1 | 2) =>
    radix === 0 ? String(v) : radix === 1 ? `0x${hex(v)}` : `0${v.toString(8)}`;

  /** Every way a resolver or URL parser spells the IPv4 address n; `radix` picks the per-part base of the mixed forms. */
  function spellings(n: number, radix: Array<0 | 1 | 2>): string[] {
    const [a, b, c, d] = bytes(n) as [number, number, number, number];
    const v4 = `${a}.${b}.${c}.${d}`;
    return [
      v4,
      `${v4}.`,
      String(n),
      `0x${hex(n)}`,
      `0X${hex(n).toUpperCase()}`,
      `0${n.toString(8)}`,
      [a, b, c, d].map((x) => `0${x.toString(8)}`).join("."),
      [a, b, c, d].map((x) => `0x${hex(x)}`).join("."),
      [a, b, c, d].map((x, i) => part(x, radix[i]!)).join("."),
      `${part(a, radix[0]!)}.${part(b, radix[1]!)}.${part((c << 8) | d, radix[2]!)}`,
      `${part(a, radix[0]!)}.${part((b << 16) | (c << 8) | d, radix[1]!)}`,
      `[::ffff:${v4}]`,
      `[::ffff:${g(n).join(":")}]`,
      `[::FFFF:${g(n).join(":").toUpperCase()}]`,
      `[0:0:0:0:0:ffff:${v4}]`,
      `[::ffff:0:${v4}]`,
      `[::${v4}]`,
      `[64:ff9b::${v4}]`,
      `[2002:${g(n).join(":")}::1]`,
    ];
  }

  it.each(RANGES)("%s/%i → %s", (base, bits, cls) => {
    const lo = parseIPv4(base)!;
    const size = 2 ** (32 - bits);
    const radix = fc.tuple(...[0, 1, 2].map(() => fc.constantFrom<0 | 1 | 2>(0, 1, 2)));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: size - 1 }), radix, (offset, rx) => {
        const n = (lo + offset) >>> 0;
        for (const s of spellings(n, rx)) {
          // ::0.0.0.0 and ::0.0.0.1 are :: (unspecified) and ::1 (loopback): inward, by another name.
          const want = n <= 1 && s.startsWith("[::0.") ? (n === 0 ? "unspecified" : "loopback") : cls;
          // Raw, and as the URL parser hands it to an area.
          expect([s, classifyHost(s).class]).toEqual([s, want]);
          expect([s, viaUrl(s).class]).toEqual([s, want]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("and a public IPv4 stays public in its IPv4 and IPv4-mapped spellings", () => {
    const publicV4 = fc
      .integer({ min: 0, max: 0xffffffff })
      .filter((n) => classifyHost(formatIPv4(n)).class === "public");
    fc.assert(
      fc.property(publicV4, (n) => {
        for (const s of spellings(n, [0, 1, 2]).slice(0, 16)) expect([s, classifyHost(s).class]).toEqual([s, "public"]);
      }),
      { numRuns: 150 },
    );
  });
});
