import { beforeEach, describe, expect, it } from "vitest";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";
import { BODY_CAP, type JournalEntry } from "../../emulator/ui/journal.ts";
import { useEmulator, type Api, type Emulator } from "../helpers.ts";

// Request verification: the journal filtered by key, method, operation, status, path and time, counted,
// with write bodies kept (masked, bounded), cleared on request and by reset, kept by restore.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

const requests = async (query: Record<string, string> = {}) => {
  const res = await api.get("/_emulator/requests").query(query).expect(200);
  return res.body.data as { size: number; count: number; requests: JournalEntry[] };
};
const ids = (entries: JournalEntry[]) => entries.map((e) => `${e.method} ${e.path} ${e.status}`);

beforeEach(async () => {
  await emu.reset();
});

/** Three calls a minute apart: the demo key reads a card, registers a webhook; the tenant reads a missing order. */
async function threeCalls(): Promise<{ secret: string; t0: number }> {
  const t0 = emu.clock.now();
  await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", emu.key("demo")).expect(200);
  await emu.clock.advance(60_000);
  const hook = await api
    .post("/api/v1/webhooks")
    .set("X-API-Key", emu.key("demo"))
    .send({ url: "http://127.0.0.1:9/hook" })
    .expect(201);
  await emu.clock.advance(60_000);
  expectWarehouseError(
    await api.get("/api/v1/orders/ord_missing").set("X-API-Key", emu.key("tenant")),
    404,
    "not_found",
  );
  return { secret: (hook.body as { data: { signing_secret: string } }).data.signing_secret, t0 };
}

describe("GET /_emulator/requests filters", () => {
  it("by key name, key value, label and masked key", async () => {
    await threeCalls();
    const demo = ["POST /api/v1/webhooks 201", "GET /api/v1/pokemon/cards/base1-4 200"];
    expect(ids((await requests({ key: "demo" })).requests)).toEqual(demo);
    expect(ids((await requests({ key: emu.key("demo") })).requests)).toEqual(demo);
    const label = emu.keys.find((k) => k.name === "tenant")!.label;
    expect(ids((await requests({ key: label })).requests)).toEqual(["GET /api/v1/orders/ord_missing 404"]);
    expect((await requests({ key: `${emu.key("tenant").slice(0, 11)}…` })).count).toBe(1);
    const [entry] = (await requests({ key: "tenant" })).requests;
    expect(entry).toMatchObject({ key_name: "tenant", key_label: label, key: `${emu.key("tenant").slice(0, 11)}…` });
  });

  it("by method, operation id, path template and path", async () => {
    await threeCalls();
    expect(ids((await requests({ method: "post" })).requests)).toEqual(["POST /api/v1/webhooks 201"]);
    expect(ids((await requests({ operation: "cards.get" })).requests)).toEqual([
      "GET /api/v1/pokemon/cards/base1-4 200",
    ]);
    const byTemplate = (await requests({ operation: "/orders/:order_id" })).requests;
    expect(ids(byTemplate)).toEqual(["GET /api/v1/orders/ord_missing 404"]);
    expect(byTemplate[0]).toMatchObject({ operation: "warehouse.orders.get", route: "/orders/:order_id" });
    expect((await requests({ operation: "/api/v1/orders/:order_id" })).count).toBe(1);
    expect(ids((await requests({ path: "base1" })).requests)).toEqual(["GET /api/v1/pokemon/cards/base1-4 200"]);
  });

  it("by status and status class", async () => {
    await threeCalls();
    expect((await requests({ status: "404" })).requests.map((e) => e.error)).toEqual(["not_found"]);
    expect((await requests({ status: "2xx" })).count).toBe(2);
    expect((await requests({ status: "5xx" })).count).toBe(0);
  });

  it("by time (since, until: ISO-8601 or virtual-clock ms, inclusive)", async () => {
    const { t0 } = await threeCalls();
    expect(ids((await requests({ since: new Date(t0 + 60_000).toISOString() })).requests)).toEqual([
      "GET /api/v1/orders/ord_missing 404",
      "POST /api/v1/webhooks 201",
    ]);
    expect(ids((await requests({ until: String(t0) })).requests)).toEqual(["GET /api/v1/pokemon/cards/base1-4 200"]);
    expect((await requests({ since: String(t0 + 60_000), until: new Date(t0 + 60_000).toISOString() })).count).toBe(1);
  });

  it("counts every match, whatever the limit", async () => {
    await threeCalls();
    const page = await requests({ limit: "1" });
    expect(page.count).toBe(3);
    expect(ids(page.requests)).toEqual(["GET /api/v1/orders/ord_missing 404"]);
  });

  it("refuses a bad filter with 400 invalid_value", async () => {
    expectError(await api.get("/_emulator/requests").query({ status: "2x" }), 400, "invalid_value");
    expectError(await api.get("/_emulator/requests").query({ since: "yesterday" }), 400, "invalid_value");
    expectError(await api.get("/_emulator/requests").query({ stubbed: "maybe" }), 400, "invalid_value");
  });
});

describe("bodies in the journal", () => {
  it("keeps a successful write's request and answer bodies, with secrets masked", async () => {
    const { secret } = await threeCalls();
    const [entry] = (await requests({ operation: "webhooks.register" })).requests;
    expect(JSON.parse(entry!.request.body!)).toEqual({ url: "http://127.0.0.1:9/hook" });
    expect(entry!.request.truncated).toBe(false);
    expect(entry!.response.body).not.toContain(secret);
    expect(entry!.response.body).toContain(`"signing_secret":"${secret.slice(0, 4)}…"`);
    expect(entry!.request.headers["x-api-key"]).toBe(`${emu.key("demo").slice(0, 11)}…`);
  });

  it("cuts a body at BODY_CAP characters and says so", async () => {
    await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", emu.key("demo"))
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ url: "http://127.0.0.1:9/hook", note: "x".repeat(BODY_CAP * 2) }));
    const [entry] = (await requests({ operation: "webhooks.register" })).requests;
    expect(entry!.request.truncated).toBe(true);
    expect(entry!.request.body!.startsWith('{"url":"http://127.0.0.1:9/hook","note":"xxx')).toBe(true);
    expect(entry!.request.body!.length).toBeLessThan(BODY_CAP + 64);
    expect(entry!.request.body).toMatch(/… \(\d+ more characters\)$/);
  });
});

describe("clearing the journal", () => {
  it("DELETE /_emulator/requests clears it and says how many it forgot", async () => {
    await threeCalls();
    const res = await api.delete("/_emulator/requests").expect(200);
    expect(res.body.data).toEqual({ cleared: 3 });
    expect(await requests()).toMatchObject({ count: 0, requests: [] });
  });

  it("reset() clears it; restore() keeps it", async () => {
    const snap = await emu.snapshot();
    await threeCalls();
    await emu.restore(snap);
    expect(emu.requests.count()).toBe(3);
    await emu.reset();
    expect(emu.requests.count()).toBe(0);
  });
});

describe("emu.requests, typed", () => {
  it("find and count take the same filters, times as Dates or ms", async () => {
    const { t0 } = await threeCalls();
    const found = emu.requests.find({ operation: "webhooks.register", key: "demo" });
    expect(found.map((e) => [e.operation, e.key_name, e.status])).toEqual([["webhooks.register", "demo", 201]]);
    expect(emu.requests.count({ key: "demo" })).toBe(2);
    expect(emu.requests.count({ status: 404, since: new Date(t0 + 1) })).toBe(1);
    expect(emu.requests.count({ until: t0 - 1 })).toBe(0);
    expect(emu.requests.clear()).toBe(3);
    expect(emu.requests.find()).toEqual([]);
  });
});
