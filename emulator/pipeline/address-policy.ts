import { domainToASCII } from "node:url";

// One classifier for the host of any caller-supplied URL (vision image_url,
// webhook delivery URLs): is it a public address, or loopback, private,
// link-local, unspecified, multicast or reserved? Each area applies its own
// policy and error code on top. Nothing is resolved through DNS (the emulator
// stays offline and deterministic), so names are judged by what they are by
// definition (`localhost`, `*.local`, single-label names, …) and IP literals by
// range, in every spelling a resolver or URL parser accepts: IPv4 as dotted,
// integer, hex, octal or short form (`2130706433`, `0x7f000001`, `0177.0.0.1`,
// `127.1`); IPv6 compressed or not, with an embedded IPv4 tail or zone id, and
// IPv4 reached through IPv6 (mapped, compatible, NAT64, 6to4). The safe
// direction wins: a host that looks like an address but does not parse as one
// is "reserved", never public.

export type AddressClass = "public" | "loopback" | "private" | "link-local" | "unspecified" | "multicast" | "reserved";

export interface HostClass {
  /** The host as judged: lower case, no brackets, no trailing dot; IP literals in canonical form. */
  host: string;
  kind: "ipv4" | "ipv6" | "name";
  class: AddressClass;
  /** The rule that decided a non-public class, e.g. "127.0.0.0/8" or "*.localhost"; null when public. */
  range: string | null;
}

type Verdict = { class: AddressClass; range: string | null };
const PUBLIC: Verdict = { class: "public", range: null };

// ---------------------------------------------------------------- IPv4

/** IPv4 special-purpose ranges (IANA registry) that are not publicly routable. */
const V4_RANGES: ReadonlyArray<readonly [string, number, AddressClass, string]> = [
  ["0.0.0.0", 8, "unspecified", "this network"],
  ["10.0.0.0", 8, "private", "private"],
  ["100.64.0.0", 10, "private", "shared address space, carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback", "loopback"],
  ["169.254.0.0", 16, "link-local", "link-local, incl. cloud metadata"],
  ["172.16.0.0", 12, "private", "private"],
  ["192.0.0.0", 24, "reserved", "IETF protocol assignments"],
  ["192.0.2.0", 24, "reserved", "documentation"],
  ["192.88.99.0", 24, "reserved", "6to4 relay anycast"],
  ["192.168.0.0", 16, "private", "private"],
  ["198.18.0.0", 15, "reserved", "benchmarking"],
  ["198.51.100.0", 24, "reserved", "documentation"],
  ["203.0.113.0", 24, "reserved", "documentation"],
  ["224.0.0.0", 4, "multicast", "multicast"],
  ["240.0.0.0", 4, "reserved", "reserved, incl. broadcast"],
];

const V4_TABLE = V4_RANGES.map(([base, bits, cls, what]) => ({
  base: parseIPv4(base)!,
  mask: bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0,
  verdict: { class: cls, range: `${base}/${bits} (${what})` } as Verdict,
}));

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

function classifyV4(n: number): Verdict {
  for (const r of V4_TABLE) if ((n & r.mask) >>> 0 === r.base) return r.verdict;
  return PUBLIC;
}

/** One part of an IPv4 host: decimal, `0x` hex or leading-zero octal (inet_aton and WHATWG URL). */
function parseV4Part(part: string): bigint | null {
  if (part === "") return null;
  let digits = part;
  let valid = /^[0-9]+$/;
  let prefix = "";
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    valid = /^[0-9a-f]*$/i;
    prefix = "0x";
  } else if (part.length > 1 && part.startsWith("0")) {
    digits = part.slice(1);
    valid = /^[0-7]+$/;
    prefix = "0o";
  }
  if (!valid.test(digits)) return null;
  return digits === "" ? 0n : BigInt(prefix + digits);
}

/**
 * The 32-bit value of an IPv4 host in any spelling (`127.0.0.1`, `127.1`,
 * `2130706433`, `0x7f000001`, `0177.0.0.1`, `0x7f.1`), or null. As in
 * inet_aton: up to four parts; the last one fills the remaining bytes.
 */
export function parseIPv4(host: string): number | null {
  const parts = host.split(".");
  if (parts.length > 4) return null;
  const nums = parts.map(parseV4Part);
  if (nums.some((n) => n === null)) return null;
  const last = nums.pop()!;
  if (nums.some((n) => n! > 255n) || last >= 1n << BigInt(8 * (4 - nums.length))) return null;
  let value = last;
  nums.forEach((n, i) => (value += n! << BigInt(8 * (3 - i))));
  return Number(value);
}

/** The last label is a number (WHATWG "ends in a number"): the host is meant as IPv4. */
function endsInNumber(host: string): boolean {
  const last = host.split(".").pop() ?? "";
  return /^[0-9]+$/.test(last) || /^0x[0-9a-f]*$/i.test(last);
}

// ---------------------------------------------------------------- IPv6

/** The eight 16-bit groups of an IPv6 literal (zone id dropped, IPv4 tail allowed), or null. */
export function parseIPv6(host: string): number[] | null {
  let s = host.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const lastColon = s.lastIndexOf(":");
  if (lastColon < 0) return null;
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(tail)) return null;
    const bytes = tail.split(".").map(Number);
    if (bytes.some((b) => b > 255)) return null;
    s = `${s.slice(0, lastColon + 1)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const all = [...head, ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  if (halves.length === 2 ? all.length > 7 : all.length !== 8) return null;
  const nums = all.map((g) => parseInt(g, 16));
  if (halves.length === 1) return nums;
  const fill = new Array<number>(8 - all.length).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...fill, ...rest.map((g) => parseInt(g, 16))];
}

export function formatIPv6(g: readonly number[]): string {
  // RFC 5952: the longest run (≥ 2) of zero groups becomes "::".
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`;
}

/** IPv4 carried inside IPv6: the embedded address decides, unless it is public and the wrapper is not. */
function viaV4(v4: number, wrapper: string, ifPublic: Verdict): Verdict {
  const inner = classifyV4(v4);
  if (inner.class === "public") return ifPublic;
  return { class: inner.class, range: `${wrapper} → ${formatIPv4(v4)} in ${inner.range}` };
}

function classifyV6(g: readonly number[]): Verdict {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => ((g[hi]! << 16) | g[lo]!) >>> 0;
  if (zeros(0, 8)) return { class: "unspecified", range: "::/128" };
  if (zeros(0, 7) && g[7] === 1) return { class: "loopback", range: "::1/128" };
  if (zeros(0, 5) && g[5] === 0xffff) return viaV4(v4(6, 7), "::ffff:0:0/96 (IPv4-mapped)", PUBLIC);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return viaV4(v4(6, 7), "::ffff:0:0:0/96 (IPv4-translated)", PUBLIC);
  // Deprecated IPv4-compatible addresses have no public use left.
  if (zeros(0, 6))
    return viaV4(v4(6, 7), "::/96 (IPv4-compatible)", {
      class: "reserved",
      range: "::/96 (IPv4-compatible, deprecated)",
    });
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return viaV4(v4(6, 7), "64:ff9b::/96 (NAT64)", PUBLIC);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1)
    return { class: "private", range: "64:ff9b:1::/48 (local-use NAT64)" };
  if (g[0] === 0x2002) return viaV4(v4(1, 2), "2002::/16 (6to4)", PUBLIC);
  if (g[0] === 0x2001 && g[1] === 0x0db8) return { class: "reserved", range: "2001:db8::/32 (documentation)" };
  if (g[0] === 0x2001 && g[1]! < 0x0200)
    return { class: "reserved", range: "2001::/23 (IETF protocol assignments, incl. Teredo)" };
  if ((g[0]! & 0xfff0) === 0x3ff0) return { class: "reserved", range: "3fff::/20 (documentation)" };
  if ((g[0]! & 0xfe00) === 0xfc00) return { class: "private", range: "fc00::/7 (unique local)" };
  if ((g[0]! & 0xffc0) === 0xfe80) return { class: "link-local", range: "fe80::/10 (link-local)" };
  if ((g[0]! & 0xffc0) === 0xfec0) return { class: "private", range: "fec0::/10 (site-local, deprecated)" };
  if ((g[0]! & 0xff00) === 0xff00) return { class: "multicast", range: "ff00::/8 (multicast)" };
  // Only 2000::/3 is allocated for global unicast.
  if ((g[0]! & 0xe000) !== 0x2000) return { class: "reserved", range: "outside 2000::/3 (not global unicast)" };
  return PUBLIC;
}

// ---------------------------------------------------------------- names

/** Names that point inward by definition (RFC 6761, 6762, 8375; ICANN's .internal). */
const NAME_RULES: ReadonlyArray<readonly [string, AddressClass]> = [
  ["localhost", "loopback"],
  ["local", "link-local"],
  ["internal", "private"],
  ["home.arpa", "private"],
  ["localdomain", "private"],
];

function classifyName(name: string): Verdict {
  for (const [suffix, cls] of NAME_RULES) {
    if (name === suffix) return { class: cls, range: suffix };
    if (name.endsWith(`.${suffix}`)) return { class: cls, range: `*.${suffix}` };
  }
  // A single label resolves through the local search domains: an intranet host.
  if (!name.includes(".")) return { class: "private", range: "single-label name" };
  return PUBLIC;
}

// ---------------------------------------------------------------- entry points

/** Classifies a host as found in a URL (`url.hostname`) or written by hand. */
export function classifyHost(raw: string): HostClass {
  return classify(raw, true);
}

function classify(raw: string, normalise: boolean): HostClass {
  let h = raw.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.includes(":")) {
    const groups = parseIPv6(h);
    if (!groups) return { host: h, kind: "ipv6", class: "reserved", range: "not a valid IPv6 address" };
    return { host: formatIPv6(groups), kind: "ipv6", ...classifyV6(groups) };
  }
  // "localhost." and "127.0.0.1." are the same hosts (a fully qualified name ends in a dot).
  h = h.replace(/\.+$/, "");
  if (h === "") return { host: h, kind: "name", class: "reserved", range: "empty host" };
  if (!/^[a-z0-9._-]+$/.test(h)) {
    // Full-width digits and dots, percent-escapes, other Unicode: the URL host
    // parser's normalisation (IDNA), then judged once more.
    const ascii = normalise ? domainToASCII(h) : "";
    if (ascii === "") return { host: h, kind: "name", class: "reserved", range: "not a valid host name" };
    return classify(ascii, false);
  }
  if (endsInNumber(h)) {
    const n = parseIPv4(h);
    if (n === null) return { host: h, kind: "ipv4", class: "reserved", range: "not a valid IPv4 address" };
    return { host: formatIPv4(n), kind: "ipv4", ...classifyV4(n) };
  }
  return { host: h, kind: "name", ...classifyName(h) };
}

/** A short reason for an error message: "127.0.0.1 is a loopback address (127.0.0.0/8 (loopback))". */
export function describeHost(c: HostClass): string {
  const what = c.kind === "name" ? "host" : "address";
  const article = /^[aeiou]/.test(c.class) ? "an" : "a";
  return `${c.host} is ${article} ${c.class} ${what}${c.range ? ` (${c.range})` : ""}`;
}

/** For msw's `onUnhandledRequest`: loopback traffic (supertest, viem, a local chain) passes through. */
export function isLoopback(url: string | URL): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}
