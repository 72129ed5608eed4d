import { afterAll, beforeAll } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator, type EmulatorOptions } from "../emulator/index.ts";

/** A listening emulator on an ephemeral port, manual clock, plus a supertest agent. */
export async function startEmulator(options: EmulatorOptions = {}) {
  const emu = await createEmulator({ seed: 1, clock: "manual", port: 0, validateResponses: true, ...options });
  const api = request(emu.url);
  return { emu, api, close: () => emu.close() };
}

export type Api = ReturnType<typeof request>;

/** Creates a key through the control plane. */
export async function newKey(api: Api, body: Record<string, unknown>): Promise<string> {
  const res = await api.post("/_emulator/keys").send(body).expect(201);
  return res.body.data.key as string;
}

export async function balance(api: Api, key: string): Promise<number> {
  const res = await api.get(`/_emulator/credits/${key}`).expect(200);
  return res.body.data.balance as number;
}

export type { Emulator };

/**
 * Waits (event-loop turns, not a fixed sleep) until `cond` holds; fails after `timeoutMs` of wall time.
 * The default is a hang detector, not a budget: a loaded machine may take long, never fail.
 */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * One listening emulator (manual clock) for a test file: started before its
 * tests, closed after them; `set` receives it (and the supertest agent).
 */
export function useEmulator(set: (ctx: { emu: Emulator; api: Api }) => void, options: EmulatorOptions = {}): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await startEmulator(options);
    close = started.close;
    set({ emu: started.emu, api: started.api });
  });
  afterAll(() => close?.());
}

/**
 * One emulator per test file with a Card Data key that never runs out of credits or rate limit:
 * what the catalog tests share. `set` receives the emulator, the agent and the key.
 */
export function useCatalogKey(set: (ctx: { emu: Emulator; api: Api; key: string }) => void): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await startEmulator({ ipRateLimitPerMin: 100_000 });
    close = started.close;
    const key = await newKey(started.api, {
      kind: "partner",
      scopes: ["read:catalog"],
      balance: 100_000,
      rate_limit_per_min: 100_000,
    });
    set({ emu: started.emu, api: started.api, key });
  });
  afterAll(() => close?.());
}
