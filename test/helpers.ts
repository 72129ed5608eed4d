import { afterAll, beforeAll } from "vitest";
import request, { type Test } from "supertest";
import type { IncomingMessage } from "node:http";
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
 * Waits until `cond` holds, checking it after each event-loop turn; fails after `timeoutMs` of wall time.
 * The default is a hang detector, not a budget: a loaded machine may take long, never fail.
 * The first turns are `setImmediate`s (what an in-process change needs); past them a turn waits for the
 * loop's next I/O or a 1 ms timer instead, so a wait on a child process or a socket does not spin a core
 * (it did: `setImmediate` alone kept the worker at 100 % CPU while a child it waited for started).
 */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (let turn = 0; !cond(); turn++) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => (turn < 100 ? setImmediate(r) : setTimeout(r, 1)));
  }
}

/**
 * One listening emulator (manual clock) for a test file: started before its
 * tests, closed after them; `set` receives it (and the supertest agent).
 */
/** An emulator's in-process fetch as a `fetch` (for clients that take one: the suite, scenarios, the SDK). */
export const fetchVia = (emu: Pick<Emulator, "fetch">): typeof fetch =>
  ((input: string | URL | Request, init?: RequestInit) => emu.fetch(input, init)) as typeof fetch;

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

/** A supertest parser keeping the body as text whatever its media type: a malformed JSON answer is seen, not thrown. */
export function asText(res: IncomingMessage | unknown, done: (err: Error | null, body: unknown) => void): void {
  const r = res as IncomingMessage;
  let text = "";
  r.setEncoding("utf8");
  r.on("data", (chunk: string) => (text += chunk));
  r.on("end", () => done(null, text));
}

type Verb = "get" | "post" | "put" | "patch" | "delete";

/** One call by method name (for tables of calls): the body, when given, is sent as JSON (an object) or as is (a string). */
export function apiCall(
  api: Api,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Test {
  const req = api[method.toLowerCase() as Verb](path).set(headers);
  return body === undefined ? req : req.send(body as object | string);
}

/**
 * One call with a raw body (sent as given, or none) read as text whatever it claims to be.
 * For junk and hostile input, where the body must reach the server byte for byte.
 */
export async function rawCall(
  api: Api,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; headers: Record<string, string> }> {
  const res = await apiCall(api, method, path, headers, body).buffer(true).parse(asText);
  return { status: res.status, text: res.body as string, headers: res.headers as Record<string, string> };
}

/**
 * A server-sent event stream read through supertest as it arrives (`.buffer(false)`: the answer resolves at its
 * headers while the body keeps flowing): `until(text)` waits for the text to arrive, `close()` hangs up.
 */
export async function openStream(req: Test) {
  let text = "";
  let raw: IncomingMessage | undefined;
  const res = await req.buffer(false).parse((r, done) => {
    raw = r as unknown as IncomingMessage;
    raw.setEncoding("utf8");
    raw.on("data", (chunk: string) => (text += chunk));
    raw.on("end", () => done(null, null));
    raw.on("error", () => done(null, null));
  });
  return {
    status: res.status,
    type: String(res.headers["content-type"] ?? ""),
    text: () => text,
    until: (needle: string) => waitFor(() => text.includes(needle), `the stream to say ${JSON.stringify(needle)}`),
    close: () => raw?.destroy(),
  };
}
