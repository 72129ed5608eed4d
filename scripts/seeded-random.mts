import { createRequire, syncBuiltinESMExports } from "node:module";

// Makes the harness's own randomness (fresh run tags, fresh wallets, receiver run ids) repeatable, so
// scripts/openapi-examples.mts writes the same file twice. Only for that script: never imported by the emulator.

export function seedRandomness(seed: number): void {
  let s = seed >>> 0;
  /** mulberry32: small, fast, good enough for ids. */
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const fill = <T extends ArrayBufferView | null>(view: T): T => {
    if (view) {
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    }
    return view;
  };
  Math.random = next;
  globalThis.crypto.getRandomValues = fill as typeof globalThis.crypto.getRandomValues;
  const nodeCrypto = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  const hex = (n: number) => Buffer.from(fill(new Uint8Array(n))).toString("hex");
  nodeCrypto.randomUUID = (() => {
    const h = hex(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }) as typeof nodeCrypto.randomUUID;
  nodeCrypto.randomBytes = ((n: number) => Buffer.from(fill(new Uint8Array(n)))) as typeof nodeCrypto.randomBytes;
  syncBuiltinESMExports();
}
