/**
 * Steady-state cost of one in-process request (issue 38 goal 3), each beside a baseline measured in the
 * same process, cases interleaved batch by batch so a loaded machine slows them alike; µs per call (wall
 * and the process's CPU time), medians of the rounds, and the ratios the goal names:
 *   - `emu.fetch` card GET, and health, vs `new Response(same bytes, {headers: same headers}).text()`;
 *   - global `fetch` through `emu.handlers` in msw vs a bare msw handler answering the same bytes, each with
 *     only its own handlers in msw's list (`server.resetHandlers` before its batch), and, as measured before
 *     2026-11-29, the emulator's handlers behind the bare one (so each call also paid msw's parse for it).
 * Also the first call of a fresh emulator (one figure: the JIT is cold). Runs from the sources (tsx).
 *
 *   npm run bench -- request [--rounds 30 --calls 200]
 */
import { parseArgs } from "node:util";
import { http } from "msw";
import { setupServer } from "msw/node";
import { createEmulator } from "../emulator/index.ts";
import { loadKey } from "./load-key.ts";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "request"),
  options: { rounds: { type: "string", default: "30" }, calls: { type: "string", default: "200" } },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const CARD = "/api/v1/pokemon/cards/base1-4";
const HEALTH = "/api/v1/health";

const now = () => performance.now();
const emu = await createEmulator({ seed: 1, clock: "manual", ipRateLimitPerMin: 1e9 });
const demo = emu.keys.find((k) => k.name === "demo")!.key;
// The first call of a fresh emulator (the pipeline's first pass), against the first Response read.
let t0 = now();
await (await emu.fetch(CARD, { headers: { "x-api-key": demo } })).text();
const firstCall = now() - t0;

// A key no budget stops within the run (the clock is manual: windows never roll).
const key = await loadKey((path, init) => emu.fetch(path, init), 1e9);
const init = { headers: { "x-api-key": key } };

/** The bytes and headers an answer carries, so the baselines hand out the same. */
async function sample(path: string) {
  const res = await emu.fetch(path, init);
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return { body: await res.text(), headers: Object.fromEntries(res.headers) };
}
const card = await sample(CARD);
const health = await sample(HEALTH);
t0 = now();
await new Response(card.body, { headers: card.headers }).text();
const firstResponse = now() - t0;

const BARE = "http://bare.local";
const bare = http.get(`${BARE}${CARD}`, () => new Response(card.body, { headers: card.headers }));
// msw tries its handlers in turn, and a plain handler it tries parses the request whether or not it matches
// (~20 µs): each msw case runs with only its own handlers listed, so neither pays for the other's. msw stays
// listening throughout (its interceptors patch Request, Response and Headers for every case alike).
const server = setupServer(...emu.handlers);
server.listen({ onUnhandledRequest: "error" });

const msw =
  (...handlers: Parameters<typeof server.resetHandlers>) =>
  () =>
    server.resetHandlers(...handlers);
const cases: Record<string, { run: () => Promise<unknown>; before?: () => void }> = {
  "emu.fetch card": { run: () => emu.fetch(CARD, init).then((r) => r.text()) },
  "Response card": { run: () => new Response(card.body, { headers: card.headers }).text() },
  "emu.fetch health": { run: () => emu.fetch(HEALTH, init).then((r) => r.text()) },
  "Response health": { run: () => new Response(health.body, { headers: health.headers }).text() },
  "msw emu card": { run: () => fetch(`${emu.url}${CARD}`, init).then((r) => r.text()), before: msw(...emu.handlers) },
  "msw bare card": { run: () => fetch(`${BARE}${CARD}`, init).then((r) => r.text()), before: msw(bare) },
  // The method before 2026-11-29: the bare handler prepended, so every call to the emulator paid its parse too.
  "msw emu card behind bare": {
    run: () => fetch(`${emu.url}${CARD}`, init).then((r) => r.text()),
    before: msw(bare, ...emu.handlers),
  },
  "msw bare card before emu": {
    run: () => fetch(`${BARE}${CARD}`, init).then((r) => r.text()),
    before: msw(bare, ...emu.handlers),
  },
};
// Wall time and the process's CPU time per batch: on a machine other jobs load, CPU time is the steadier
// figure, and a ratio taken within one round (the subject's batch beside its baseline's) the steadiest.
const wall: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((n) => [n, []]));
const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((n) => [n, []]));
for (let round = -2; round < ROUNDS; round++)
  for (const [name, { run, before }] of Object.entries(cases)) {
    before?.();
    const start = now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) await run();
    const c = process.cpuUsage(c0);
    // The first two rounds warm the JIT up and are not counted.
    if (round < 0) continue;
    wall[name]!.push(((now() - start) * 1000) / CALLS);
    cpu[name]!.push((c.user + c.system) / CALLS);
  }
server.close();
await emu.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const row = (name: string, subject: string, base: string) => {
  const ratio = (of: Record<string, number[]>) => median(of[subject]!.map((x, i) => x / of[base]![i]!)).toFixed(2);
  const fig = (of: Record<string, number[]>, n: string) => median(of[n]!).toFixed(1).padStart(6);
  console.log(
    `${name.padEnd(48)} wall ${fig(wall, subject)} vs ${fig(wall, base)} µs (×${ratio(wall)})   CPU ${fig(cpu, subject)} vs ${fig(cpu, base)} µs (×${ratio(cpu)})`,
  );
};
console.log(`${ROUNDS} rounds of ${CALLS} calls each, interleaved; medians per call, and of the rounds' ratios`);
console.log(
  `first emu.fetch card GET ${firstCall.toFixed(1)} ms vs first Response read ${firstResponse.toFixed(2)} ms`,
);
row("emu.fetch card GET vs Response(same bytes)", "emu.fetch card", "Response card");
row("emu.fetch health vs Response(same bytes)", "emu.fetch health", "Response health");
row("msw: emulator handlers vs bare msw handler", "msw emu card", "msw bare card");
row("msw, as before 2026-11-29 (bare handler first)", "msw emu card behind bare", "msw bare card before emu");
process.exit(0);
