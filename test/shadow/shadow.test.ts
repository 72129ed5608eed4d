import { afterEach, beforeEach, describe, expect, it } from "vitest";
import request from "supertest";
import { expectError } from "../../conformance/assert.ts";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createEmulator } from "../../emulator/index.ts";
import { startEmulator } from "../helpers.ts";
import { startShadow, type Shadow } from "../../shadow/index.ts";
import { deviations } from "../../testing/deviations/index.ts";

// The upstream is a second emulator (same seed, manual clock): clean, it must show no drift; with
// deviations switched on, exactly their differences.

type Upstream = Awaited<ReturnType<typeof startEmulator>>;
let up: Upstream;
let shadow: Shadow;
let dir: string | null = null;

const READS = [
  "/api/v1/health",
  "/api/v1/pokemon/cards?page_size=3",
  "/api/v1/pokemon/cards/base1-1",
  "/api/v1/pokemon/cards/no-such-card",
  "/api/v1/pokemon/expansions?page_size=2",
  "/api/v1/mystery/catalog",
  "/api/v1/account/usage",
  "/api/v1/webhooks",
  "/api/v1/mystery/purchases",
];
const WRITE = { url: "https://example.com/hook", event_types: ["no.such.event"] };

async function run(): Promise<void> {
  for (const p of READS) expect((await request(shadow.url).get(p)).status).toBeLessThan(500);
  await request(shadow.url).post("/api/v1/webhooks").send(WRITE);
  await shadow.settled();
}

/** Every difference of the report as `operation kind where`. */
const found = () =>
  shadow.log
    .report()
    .operations.flatMap((o) => o.differences.map((d) => `${o.id} ${d.kind} ${d.where}`))
    .sort();

beforeEach(async () => {
  up = await startEmulator({ plugins: [deviations] });
  dir = null;
});
afterEach(async () => {
  await shadow?.close();
  await up.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const start = (extra: { record?: string } = {}) =>
  startShadow({
    upstream: up.emu.url,
    upstreamKey: up.emu.key("demo"),
    emulator: { seed: 1, clock: "manual", chain: false },
    ...extra,
  });

describe("shadow mode", () => {
  it("passes the upstream's answer through and finds no drift against a clean upstream", async () => {
    shadow = await start();
    const direct = await up.api.get("/api/v1/pokemon/cards/base1-1").set("X-API-Key", up.emu.key("demo"));
    const via = await request(shadow.url).get("/api/v1/pokemon/cards/base1-1");
    expect(via.status).toBe(200);
    expect((via.body as { data: unknown }).data).toEqual(direct.body.data);
    await run();
    const report = shadow.log.report();
    expect(found()).toEqual([]);
    expect(report.totals).toMatchObject({
      calls: READS.length + 2,
      compared: READS.length + 2,
      differing: 0,
      differences: 0,
      unmatched: 0,
    });
    const byId = Object.fromEntries(report.operations.map((o) => [o.id, o]));
    expect(byId["cards.get"]).toMatchObject({ calls: 3, compared: 3, differing: 0 });
    expect(byId["webhooks.register"]).toMatchObject({ calls: 1, compared: 1 });
  });

  it("reports exactly the differences of the deviations switched on upstream, reads and writes", async () => {
    for (const name of [
      "schema_field_renamed",
      "schema_wrong_type",
      "catalog_no_total_count",
      "not_found_wrong_code",
      "usage_missing_plan",
      "mystery_catalog_bare_array",
      "health_requires_key",
      "no_credit_headers",
      "lenient_event_types",
    ])
      await up.api.post("/_emulator/deviations").send({ name }).expect(201);
    shadow = await start();
    await run();
    expect(found()).toEqual(
      [
        // schema_field_renamed: name → card_name on a card
        "cards.get missing /data/name",
        "cards.get extra /data/card_name",
        // schema_wrong_type: number is a number
        "cards.get type /data/number",
        // not_found_wrong_code on the missing card
        "cards.get error_code code",
        // no_credit_headers on every metered read
        "cards.get header header X-Credits-Cost",
        "cards.get header header X-Credits-Remaining",
        "cards.search header header X-Credits-Cost",
        "cards.search header header X-Credits-Remaining",
        "expansions.search header header X-Credits-Cost",
        "expansions.search header header X-Credits-Remaining",
        "account.usage header header X-Credits-Cost",
        "account.usage header header X-Credits-Remaining",
        // catalog_no_total_count on both Card Data lists
        "cards.search missing /total_count",
        "cards.search missing /page_size",
        "cards.search missing /pagination",
        "expansions.search missing /total_count",
        "expansions.search missing /page_size",
        "expansions.search missing /pagination",
        "account.usage missing /data/plan",
        "gacha.catalog type /data",
        "service.health status status",
        // lenient_event_types: a write answered 201 in a shape outside the contract
        "webhooks.register missing /data/created_at",
        "webhooks.register missing /data/updated_at",
      ].sort(),
    );
    const report = shadow.log.report();
    const card = report.operations.find((o) => o.id === "cards.get")!;
    expect(card).toMatchObject({ calls: 2, compared: 2, differing: 2 });
    const renamed = card.differences.find((d) => d.where === "/data/card_name")!;
    expect(renamed.sample.request).toBe("GET /api/v1/pokemon/cards/base1-1");
    expect(renamed.sample.upstream_status).toBe(200);
    expect(report.totals.differences).toBe(23);
  });

  it("masks keys and secrets in the report's samples", async () => {
    await up.api.post("/_emulator/deviations").send({ name: "schema_field_renamed" }).expect(201);
    shadow = await start();
    const key = up.emu.key("demo");
    await request(shadow.url).get(`/api/v1/pokemon/cards/base1-1?note=${key}`);
    await shadow.settled();
    const text = JSON.stringify(shadow.log.report());
    expect(text).toContain("/data/card_name");
    expect(text).not.toContain(key);
    expect(text).toContain("[redacted]");
  });

  it("records reads, and an emulator started with replay answers them byte for byte under the pipeline's rules", async () => {
    dir = mkdtempSync(join(tmpdir(), "shadow-rec-"));
    // The upstream answers differently from the fixtures (a renamed field), so a replayed answer is visibly the recorded one.
    await up.api.post("/_emulator/deviations").send({ name: "schema_field_renamed" }).expect(201);
    shadow = await start({ record: dir });
    const recorded = (await request(shadow.url).get("/api/v1/pokemon/cards/base1-1")).text;
    await request(shadow.url).get("/api/v1/pokemon/cards?page_size=2&game=x");
    await request(shadow.url).get("/api/v1/pokemon/cards/no-such-card");
    await request(shadow.url).post("/api/v1/webhooks").send(WRITE);
    await shadow.settled();
    const files = readdirSync(dir).sort();
    // Reads answered with success only: not the 404, never the write.
    expect(files).toEqual(["000001-cards.get.json", "000002-cards.search.json"]);
    expect(readFileSync(join(dir, files[0]!), "utf8")).not.toContain(up.emu.key("demo"));

    const replay = await createEmulator({ seed: 1, clock: "manual", replay: dir, port: 0 });
    try {
      const key = replay.key("demo");
      const api = request(replay.url);
      const res = await api.get("/api/v1/pokemon/cards/base1-1").set("X-API-Key", key);
      expect(res.status).toBe(200);
      expect(res.text).toBe(recorded);
      // The pipeline's rules still hold: credits charged, rate-limit headers, auth.
      expect(res.headers["x-credits-cost"]).toBe("1");
      expect(res.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
      const before = Number(res.headers["x-credits-remaining"]);
      const again = await api.get("/api/v1/pokemon/cards/base1-1").set("X-API-Key", key);
      expect(Number(again.headers["x-credits-remaining"])).toBe(before - 1);
      expectError(await api.get("/api/v1/pokemon/cards/base1-1"), 401, "API key required");
      // The query matches whatever the order of its parameters.
      const list = await api.get("/api/v1/pokemon/cards?game=x&page_size=2").set("X-API-Key", key);
      expect(list.text).toBe(JSON.parse(readFileSync(join(dir, files[1]!), "utf8")).body);
      // Anything not recorded falls back to the emulator.
      const other = await api.get("/api/v1/pokemon/cards/base1-2").set("X-API-Key", key);
      const body = other.body as { data: Record<string, unknown> };
      expect(body.data.name).toBeTypeOf("string");
      expect(body.data.card_name).toBeUndefined();
    } finally {
      await replay.close();
    }
  });

  it("refuses a replay directory that holds something else than recordings", async () => {
    dir = mkdtempSync(join(tmpdir(), "shadow-rec-"));
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "x.json"), "{}");
    await expect(createEmulator({ replay: dir })).rejects.toThrow(/not a recording/);
    shadow = await start();
  });
});
