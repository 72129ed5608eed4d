import * as viem from "viem";
import * as accounts from "viem/accounts";
import { describe, expect, it } from "vitest";
import * as evm from "../../chain/evm.ts";
import * as late from "../../chain/viem-late.ts";

// chain/evm.ts gives what viem gives (it replaces viem at import time: issue 38 goal 1).

const rand = (seed: number) => () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
const r = rand(38);
const text = (n: number) =>
  Array.from({ length: n }, () =>
    String.fromCodePoint(r() < 0.8 ? 32 + Math.floor(r() * 95) : 0xa0 + Math.floor(r() * 0x2000)),
  ).join("");
const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
const address = () => viem.toHex(bytes(20));

describe("chain/evm.ts against viem", () => {
  it("keccak256 of bytes, hex and strings of every length around the rate", () => {
    for (let n = 0; n < 300; n++) {
      const b = bytes(n);
      expect(evm.keccak256(b)).toBe(viem.keccak256(b));
      expect(evm.keccak256(viem.toHex(b))).toBe(viem.keccak256(viem.toHex(b)));
      const s = text(n % 80);
      expect(evm.toHex(s)).toBe(viem.toHex(s));
      expect(evm.toBytes(s)).toEqual(viem.toBytes(s));
    }
    expect(evm.keccak256("0xabc")).toBe(viem.keccak256("0xabc"));
  });

  it("addresses: checksum, strict and loose checks, equality", () => {
    for (let i = 0; i < 200; i++) {
      const lower = address();
      const sum = viem.getAddress(lower);
      expect(evm.getAddress(lower)).toBe(sum);
      expect(evm.getAddress(lower.toUpperCase().replace("0X", "0x"))).toBe(sum);
      const mixed = (sum.slice(0, 2) +
        [...sum.slice(2)].map((c, j) => (j === i % 40 ? c.toLowerCase() : c)).join("")) as viem.Hex;
      for (const a of [lower, sum, mixed, sum.slice(0, 41), `${sum}0`, "0xzz" + sum.slice(4), "nope"])
        for (const strict of [true, false, undefined]) {
          const opts = strict === undefined ? undefined : { strict };
          expect(evm.isAddress(a, opts), `${a} ${strict}`).toBe(viem.isAddress(a, opts));
        }
      expect(evm.isAddressEqual(lower, sum)).toBe(true);
      expect(evm.isAddressEqual(lower, address())).toBe(false);
    }
    expect(() => evm.getAddress("0x12")).toThrow(/Address "0x12" is invalid/);
    expect(() => evm.isAddressEqual("0x12", "0x12")).toThrow(/is invalid/);
  });

  it("encodeAbiParameters for uint256, bytes32, string and string[]", () => {
    const cases: [readonly { type: string }[], unknown[]][] = [
      [
        [{ type: "uint256" }, { type: "uint256" }],
        [0n, 5n],
      ],
      [
        [{ type: "uint256" }, { type: "uint256" }],
        [2n ** 256n - 1n, 123456789n],
      ],
      [
        [{ type: "uint256" }, { type: "bytes32" }],
        [7n, viem.keccak256("0x01")],
      ],
      [
        [{ type: "string" }, { type: "string[]" }],
        ["", []],
      ],
      [
        [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
        [1n, 2n, 3n],
      ],
    ];
    for (let i = 0; i < 60; i++)
      cases.push([
        [{ type: "string" }, { type: "string[]" }],
        [text(i), Array.from({ length: i % 7 }, (_, j) => text((i * 13 + j * 29) % 70))],
      ]);
    for (const [params, values] of cases)
      expect(evm.encodeAbiParameters(params, values)).toBe(viem.encodeAbiParameters(params, values as never));
    // Anything else is viem's own answer.
    expect(evm.encodeAbiParameters([{ type: "address" }], [viem.zeroAddress])).toBe(
      viem.encodeAbiParameters([{ type: "address" }], [viem.zeroAddress]),
    );
  });

  it("viem's other helpers, before any chain loaded viem (its CommonJS build) and after (the ESM one)", async () => {
    const check = () => {
      expect(late.formatUnits(1234567n, 6)).toBe("1.234567");
      expect(late.parseUnits("1.5", 6)).toBe(1_500_000n);
      const abi = viem.parseAbi(["function transfer(address to, uint256 amount)"]);
      const args = [viem.zeroAddress, 5n] as const;
      expect(late.encodeFunctionData({ abi, functionName: "transfer", args })).toBe(
        viem.encodeFunctionData({ abi, functionName: "transfer", args }),
      );
    };
    check();
    // From the sources there is no bundle (dist/chain/viem.cjs): the chain's viem is viem's ESM build.
    const loaded = await late.loadViem();
    expect(loaded.encodeFunctionData).toBe(viem.encodeFunctionData);
    expect(loaded.privateKeyToAccount).toBe(accounts.privateKeyToAccount);
    expect(late.viem()).toBe(loaded);
    check();
  });
});
