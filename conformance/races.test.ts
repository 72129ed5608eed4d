import { describe, it, expect, beforeAll, afterAll } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite, type SuiteOptions } from "./runner.ts";
import { PROFILES } from "./types.ts";
import { sameAcrossReads } from "./progress.ts";
import { reachable } from "../contract/lifecycle.ts";
import { INSTANT_PURCHASE } from "../contract/lifecycles/purchases.ts";

// The races a live target runs between two reads of a check, reproduced on a manual clock: the fetch a check
// uses moves the target's clock at the moment the race needs (a purchase fulfilled between its read by id and
// its list; a rate window sliding during a burst and during the wait after its 429). A check must pass whatever
// the moment, as it must on a sandbox with a real clock.

const check = (id: string) => ALL_CHECKS.filter((c) => c.id === id);

/** A fetch to the emulator that runs `after` once an answer to a matching request is in. */
const fetchThen =
  (emu: Emulator, after: (path: string, method: string) => Promise<void>) =>
  async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await emu.fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    await after(url.pathname, init?.method ?? "GET");
    return res;
  };

describe("a record that moves on between its read by id and its list", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: 0 } });
  });
  afterAll(() => emu?.close());

  it("instant.by-id-equals-listed passes when the purchase is fulfilled right after it was fetched by id", async () => {
    let moved = 0;
    const fetch = fetchThen(emu, async (path, method) => {
      // The VRF answers 5 s after the request on the clock: past it, the purchase is FULFILLED before the list.
      if (method === "GET" && /^\/api\/v1\/instant\/purchase\/\d+$/.test(path) && moved++ === 0)
        await emu.clock.advance(10_000);
    }) as typeof globalThis.fetch;
    const opts: SuiteOptions = { baseUrl: emu.url, profiles: [...PROFILES], mode: "emulator", fetch };
    const [r] = (await runSuite(check("instant.by-id-equals-listed"), opts)).results;
    expect(moved).toBeGreaterThan(0);
    expect([r!.outcome, r!.message]).toEqual(["pass", ""]);
  });
});

describe("a rate window that slides during a check, at any phase of the second", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: false });
  });
  afterAll(() => emu?.close());

  /** Each answer takes 7 ms of the target's clock, as requests over a network do. */
  const options = (): SuiteOptions => ({
    baseUrl: emu.url,
    partnerKey: emu.key("demo"),
    profiles: [...PROFILES],
    mode: "sandbox",
    time: { now: () => emu.clock.now(), sleep: (ms: number) => emu.clock.advance(ms).then(() => undefined) },
    fetch: fetchThen(emu, () => emu.clock.advance(7).then(() => undefined)) as typeof globalThis.fetch,
  });
  /** Moves the clock past every window, to `phase` ms into a second. */
  const toPhase = async (phase: number) => {
    const now = emu.clock.now();
    await emu.clock.advance((Math.floor(now / 1000) + 62) * 1000 + phase - now);
  };
  /** Requests `path` with the demo key at now and 300 ms later, then moves to 5 ms before the first leaves the window. */
  const priorTraffic = async (path: string) => {
    const start = emu.clock.now();
    const get = () => request(emu.url).get(path).set("X-API-Key", emu.key("demo")).expect(200);
    await get();
    await emu.clock.advance(300);
    await get();
    await emu.clock.advance(start + 59_995 - emu.clock.now());
  };

  it.each([0, 100, 500, 900])(
    "pipeline.ratelimit-ceiling (sandbox path) passes with the burst starting %i ms into a second",
    async (phase) => {
      await toPhase(phase);
      const [r] = (await runSuite(check("pipeline.ratelimit-ceiling"), options())).results;
      expect([r!.outcome, r!.message]).toEqual(["pass", ""]);
    },
  );

  it("pipeline.ratelimit-ceiling passes when the key's earlier requests leave the window during the burst", async () => {
    await toPhase(100);
    await priorTraffic("/api/v1/mystery/catalog");
    const [r] = (await runSuite(check("pipeline.ratelimit-ceiling"), options())).results;
    expect([r!.outcome, r!.message]).toEqual(["pass", ""]);
  });

  it("pipeline.ratelimit-headers passes when an earlier request leaves the window between its two reads", async () => {
    await toPhase(100);
    await priorTraffic("/api/v1/pokemon/cards/base1-4");
    const [r] = (await runSuite(check("pipeline.ratelimit-headers"), options())).results;
    expect([r!.outcome, r!.message]).toEqual(["pass", ""]);
  });
});

describe("sameAcrossReads: two reads of one record allow forward progress along its lifecycle, nothing else", () => {
  /** Reads answering `rows` in turn, alternately by id and listed. */
  const scripted = (rows: Array<Record<string, unknown>>) => {
    let i = 0;
    const next = async () => rows[i++]!;
    return { byId: next, listed: next };
  };
  const judged = (rows: Array<Record<string, unknown>>) =>
    sameAcrossReads(INSTANT_PURCHASE, scripted(rows), "purchase 1").then(
      () => "pass",
      (e: Error) => e.message,
    );

  it("a purchase fulfilled between the reads is read again until two agree, then compared field by field", async () => {
    const submitted = { id: 1, status: "SUBMITTED", price: "5000000" };
    const fulfilled = { id: 1, status: "FULFILLED", price: "5000000" };
    expect(await judged([submitted, fulfilled, fulfilled])).toBe("pass");
    expect(await judged([submitted, fulfilled, { ...fulfilled, price: "5" }])).toBe(
      'purchase 1: price fetched by id is "5", listed "5000000"',
    );
  });

  it("a move back, or one the table lacks, fails; so does a difference in the same state", async () => {
    expect(await judged([{ status: "FULFILLED" }, { status: "SUBMITTED" }])).toBe(
      "purchase 1: status fetched by id is FULFILLED, then listed SUBMITTED: not a move the instant purchase lifecycle makes from FULFILLED",
    );
    expect(await judged([{ status: "REFUNDED" }, { status: "FULFILLED" }])).toMatch(/not a move/);
    expect(
      await judged([
        { status: "SUBMITTED", price: "1" },
        { status: "SUBMITTED", price: "2" },
      ]),
    ).toBe('purchase 1: price fetched by id is "1", listed "2"');
  });

  it("reachable: a state itself and every state its moves lead to", () => {
    expect(reachable(INSTANT_PURCHASE, "SUBMITTED", "SUBMITTED")).toBe(true);
    expect(reachable(INSTANT_PURCHASE, "RESERVED", "FULFILLED")).toBe(true);
    expect(reachable(INSTANT_PURCHASE, "FULFILLED", "SUBMITTED")).toBe(false);
    expect(reachable(INSTANT_PURCHASE, "SUBMITTED", "NO_SUCH_STATE")).toBe(false);
  });
});
