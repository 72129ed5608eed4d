/**
 * The few pure EVM helpers the emulator needs without a chain (ids, fixture addresses, VRF words, the
 * checks of an address a caller sends), written here so `import("cardos-emulator")` does not load viem
 * (~450 modules; issue 38 goal 1, docs/benchmarks.md "Start-up"). Each gives what viem's function of
 * the same name gives for the inputs used here (test/unit/evm.test.ts compares them); any other input
 * (an invalid address, a type not encoded here) goes to viem itself, so its errors stay viem's.
 */
import type { Hex } from "viem";
import { viem } from "./viem-late.ts";

// Keccak-f[1600] on 32-bit halves: lane i is s[2i] (low word) and s[2i + 1] (high word).
const PI: number[] = [];
const ROTL: number[] = [];
const IOTA_LO: number[] = [];
const IOTA_HI: number[] = [];
for (let round = 0, r = 1n, x = 1, y = 0; round < 24; round++) {
  [x, y] = [y, (2 * x + 3 * y) % 5];
  PI.push(2 * (5 * y + x));
  ROTL.push((((round + 1) * (round + 2)) / 2) % 64);
  let t = 0n;
  for (let j = 0; j < 7; j++) {
    r = ((r << 1n) ^ ((r >> 7n) * 0x71n)) % 256n;
    if (r & 2n) t ^= 1n << ((1n << BigInt(j)) - 1n);
  }
  IOTA_LO.push(Number(t & 0xffffffffn) | 0);
  IOTA_HI.push(Number(t >> 32n) | 0);
}
// Rotations of the 64-bit (a, b) by s (1..63): rotA gives the half `a` becomes, rotB the other.
const rotA = (a: number, b: number, s: number) =>
  s > 32 ? (b << (s - 32)) | (a >>> (64 - s)) : (a << s) | (b >>> (32 - s));
const rotB = (a: number, b: number, s: number) =>
  s > 32 ? (a << (s - 32)) | (b >>> (64 - s)) : (b << s) | (a >>> (32 - s));

function permute(s: Int32Array): void {
  const c = new Int32Array(10);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 10; x++) c[x] = s[x]! ^ s[x + 10]! ^ s[x + 20]! ^ s[x + 30]! ^ s[x + 40]!;
    for (let x = 0; x < 10; x += 2) {
      const next = (x + 2) % 10;
      const prev = (x + 8) % 10;
      const lo = rotA(c[next]!, c[next + 1]!, 1) ^ c[prev]!;
      const hi = rotB(c[next]!, c[next + 1]!, 1) ^ c[prev + 1]!;
      for (let y = 0; y < 50; y += 10) {
        s[x + y]! ^= lo;
        s[x + y + 1]! ^= hi;
      }
    }
    let curLo = s[2]!;
    let curHi = s[3]!;
    for (let t = 0; t < 24; t++) {
      const lo = rotA(curLo, curHi, ROTL[t]!);
      const hi = rotB(curLo, curHi, ROTL[t]!);
      const p = PI[t]!;
      curLo = s[p]!;
      curHi = s[p + 1]!;
      s[p] = lo;
      s[p + 1] = hi;
    }
    for (let y = 0; y < 50; y += 10) {
      for (let x = 0; x < 10; x++) c[x] = s[y + x]!;
      for (let x = 0; x < 10; x++) s[y + x]! ^= ~c[(x + 2) % 10]! & c[(x + 4) % 10]!;
    }
    s[0]! ^= IOTA_LO[round]!;
    s[1]! ^= IOTA_HI[round]!;
  }
}

const RATE = 136; // bytes: keccak-256's rate (1600 - 2 × 256 bits)

function keccakBytes(data: Uint8Array): Uint8Array {
  const s = new Int32Array(50);
  const padded = new Uint8Array((Math.floor(data.length / RATE) + 1) * RATE);
  padded.set(data);
  padded[data.length]! ^= 0x01; // Keccak's padding (not SHA-3's 0x06)
  padded[padded.length - 1]! ^= 0x80;
  for (let off = 0; off < padded.length; off += RATE) {
    for (let i = 0; i < RATE / 4; i++) {
      const b = off + 4 * i;
      s[i]! ^= padded[b]! | (padded[b + 1]! << 8) | (padded[b + 2]! << 16) | (padded[b + 3]! << 24);
    }
    permute(s);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = (s[i >> 2]! >>> (8 * (i & 3))) & 0xff;
  return out;
}

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

function checksum(address: string): Hex {
  const lower = address.slice(2).toLowerCase();
  const hash = keccakBytes(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 ? hash[i >> 1]! & 0x0f : hash[i >> 1]! >> 4;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as Hex;
}

/** viem's `isAddress(address, { strict })`: 20 bytes of hex; strict, a mixed-case one must be its checksum. */
export function isAddress(address: string, options?: { strict?: boolean }): address is Hex {
  if (!ADDRESS.test(address)) return false;
  if (address.toLowerCase() === address) return true;
  return options?.strict === false || checksum(address) === address;
}

/** The EIP-55 checksummed address (viem's `getAddress`; viem's own error for what is not an address). */
export function getAddress(address: string): Hex {
  return ADDRESS.test(address) ? checksum(address) : viem().getAddress(address);
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
