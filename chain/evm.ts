/**
 * The few pure EVM helpers the emulator needs without a chain (ids, fixture addresses, VRF words, the
 * checks of an address a caller sends), written here so `import("cardos-emulator")` does not load viem
 * (~450 modules; issue 38 goal 1, docs/benchmarks.md "Start-up"). Each gives what viem's function of
 * the same name gives for the inputs used here (test/unit/evm.test.ts compares them); any other input
 * (an invalid address, a type not encoded here) goes to viem itself, so its errors stay viem's.
 */
import type { Hex } from "viem";
import { viem } from "./viem-late.ts";
import { eip55, keccakBytes } from "../contract/keccak.ts";

const HEX = /^0x[0-9a-fA-F]*$/;
const bytesToHex = (b: Uint8Array): Hex => `0x${Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex")}`;

/** keccak256 of bytes, or of a hex string's bytes (viem's `keccak256(value)`). */
export function keccak256(value: Hex | Uint8Array): Hex {
  if (typeof value !== "string") return bytesToHex(keccakBytes(value));
  if (!HEX.test(value)) return viem().keccak256(value);
  const digits = value.length % 2 ? `0${value.slice(2)}` : value.slice(2);
  return bytesToHex(keccakBytes(Buffer.from(digits, "hex")));
}

/** A string's UTF-8 bytes as hex (viem's `toHex(string)`). */
export const toHex = (text: string): Hex => `0x${Buffer.from(text, "utf8").toString("hex")}`;

/** A string's UTF-8 bytes (viem's `toBytes(string)`). */
export const toBytes = (text: string): Uint8Array => new TextEncoder().encode(text);

const ADDRESS = /^0x[a-fA-F0-9]{40}$/;

/** viem's `isAddress(address, { strict })`: 20 bytes of hex; strict, a mixed-case one must be its checksum. */
export function isAddress(address: string, options?: { strict?: boolean }): address is Hex {
  if (!ADDRESS.test(address)) return false;
  if (address.toLowerCase() === address) return true;
  return options?.strict === false || eip55(address) === address;
}

/** The EIP-55 checksummed address (viem's `getAddress`; viem's own error for what is not an address). */
export function getAddress(address: string): Hex {
  return ADDRESS.test(address) ? eip55(address) : viem().getAddress(address);
}

/** viem's `isAddressEqual`: the same 20 bytes (viem's own error for what is not an address). */
export function isAddressEqual(a: string, b: string): boolean {
  if (!ADDRESS.test(a) || !ADDRESS.test(b)) return viem().isAddressEqual(a as Hex, b as Hex);
  return a.toLowerCase() === b.toLowerCase();
}

type AbiParam = { readonly type: string };
const MAX_UINT256 = (1n << 256n) - 1n;
const word = (n: bigint) => n.toString(16).padStart(64, "0");
const encodedString = (text: string) => {
  const hex = Buffer.from(text, "utf8").toString("hex");
  return word(BigInt(hex.length / 2)) + hex.padEnd(Math.ceil(hex.length / 64) * 64, "0");
};

/** One value of a type encoded here, as [head, tail] hex without 0x; null for anything else. */
function encoded(type: string, value: unknown): { dynamic: boolean; hex: string } | null {
  if (type === "uint256" && (typeof value === "bigint" || Number.isSafeInteger(value))) {
    const n = BigInt(value as bigint | number);
    return n >= 0n && n <= MAX_UINT256 ? { dynamic: false, hex: word(n) } : null;
  }
  if (type === "bytes32" && typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value))
    return { dynamic: false, hex: value.slice(2).toLowerCase() };
  if (type === "string" && typeof value === "string") return { dynamic: true, hex: encodedString(value) };
  if (type === "string[]" && Array.isArray(value) && value.every((v) => typeof v === "string")) {
    const parts = (value as string[]).map(encodedString);
    let offset = 32 * parts.length;
    const heads = parts.map((p) => {
      const head = word(BigInt(offset));
      offset += p.length / 2;
      return head;
    });
    return { dynamic: true, hex: word(BigInt(parts.length)) + heads.join("") + parts.join("") };
  }
  return null;
}

/**
 * viem's `encodeAbiParameters` for the types the emulator hashes without a chain (uint256, bytes32,
 * string, string[]); any other type or value goes to viem.
 */
export function encodeAbiParameters(params: readonly AbiParam[], values: readonly unknown[]): Hex {
  const parts = params.map((p, i) => encoded(p.type, values[i]));
  if (params.length !== values.length || parts.some((p) => p === null))
    return viem().encodeAbiParameters(params as readonly { type: string }[], values as never);
  let tail = "";
  let offset = 32 * parts.length;
  let head = "";
  for (const part of parts as { dynamic: boolean; hex: string }[]) {
    if (!part.dynamic) head += part.hex;
    else {
      head += word(BigInt(offset));
      tail += part.hex;
      offset += part.hex.length / 2;
    }
  }
  return `0x${head}${tail}`;
}
