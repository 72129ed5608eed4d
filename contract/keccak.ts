// Keccak-256 and the EIP-55 checksum, pure: the contract's wallet rule needs them (contract/input-fields.ts) and
// so does the chain's helper module (chain/evm.ts), without loading viem (docs/benchmarks.md "Start-up";
// test/unit/evm.test.ts compares them with viem's).

// Keccak-f[1600] on 32-bit halves: lane i is s[2i] (low word) and s[2i + 1] (high word).
// The round constants, computed once (read-only afterwards).
const { PI, ROTL, IOTA_LO, IOTA_HI } = (() => {
  const t = { PI: [] as number[], ROTL: [] as number[], IOTA_LO: [] as number[], IOTA_HI: [] as number[] };
  for (let round = 0, r = 1n, x = 1, y = 0; round < 24; round++) {
    [x, y] = [y, (2 * x + 3 * y) % 5];
    t.PI.push(2 * (5 * y + x));
    t.ROTL.push((((round + 1) * (round + 2)) / 2) % 64);
    let c = 0n;
    for (let j = 0; j < 7; j++) {
      r = ((r << 1n) ^ ((r >> 7n) * 0x71n)) % 256n;
      if (r & 2n) c ^= 1n << ((1n << BigInt(j)) - 1n);
    }
    t.IOTA_LO.push(Number(c & 0xffffffffn) | 0);
    t.IOTA_HI.push(Number(c >> 32n) | 0);
  }
  return t;
})();
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

export function keccakBytes(data: Uint8Array): Uint8Array {
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

/** The EIP-55 checksummed form of a 0x-prefixed 40-hex address. */
export function eip55(address: string): `0x${string}` {
  const lower = address.slice(2).toLowerCase();
  const hash = keccakBytes(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 ? hash[i >> 1]! & 0x0f : hash[i >> 1]! >> 4;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as `0x${string}`;
}
