import { beforeEach, describe, expect, it } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import type { JournalEntry } from "../../emulator/ui/journal.ts";
import { balance, useEmulator, type Api, type Emulator } from "../helpers.ts";

// Stubs per operation over the control plane: one operation answers as told, behind authentication and
// scope checks, unbilled, for `times` calls; a 2xx body the contract refuses is refused with its pointer.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

beforeEach(async () => {
  await emu.reset();
});

const hook = {
  id: 7,
  url: "https://stubbed.example/hook",
  event_types: null,
  is_active: true,
  created_at: "2026-01-15T12:00:00.000Z",
  updated_at: "2026-01-15T12:00:00.000Z",
};
const listBody = { success: true, data: { webhooks: [hook] } };
const stub = (body: Record<string, unknown>) => api.post("/_emulator/stubs").send(body);
const webhooks = (key = emu.key("demo")) => api.get("/api/v1/webhooks").set("X-API-Key", key);

describe("POST /_emulator/stubs", () => {
  it("makes one operation answer as told; the others answer as usual", async () => {
    const res = await stub({ operation: "webhooks.list", status: 200, body: listBody, headers: { "X-Stub": "yes" } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: "stub_1", hits: 0, operation: "webhooks.list", status: 200 });
    const answer = await webhooks().expect(200);
    expect(answer.body).toEqual(listBody);
    expect(answer.headers["x-stub"]).toBe("yes");
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    expect(answer.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
    const card = await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", emu.key("demo")).expect(200);
    expect(card.body.data.id).toBe("base1-4");
    const listed = await api.get("/_emulator/stubs").expect(200);
    expect(listed.body.data.stubs.map((s: { id: string; hits: number }) => [s.id, s.hits])).toEqual([["stub_1", 1]]);
  });

  it("answers any status, errors too, and does not bill a metered operation", async () => {
    const before = await balance(api, emu.key("demo"));
    await stub({
      operation: "cards.get",
      status: 503,
      body: { success: false, error: "overloaded", message: "stubbed" },
    }).expect(201);
    const res = await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", emu.key("demo"));
    expectError(res, 503, "overloaded");
    expect(res.headers["x-credits-cost"]).toBeUndefined();
    expect(await balance(api, emu.key("demo"))).toBe(before);
  });

  it("still authenticates and checks scope: a stub opens no hole", async () => {
    await stub({ operation: "webhooks.list", status: 200, body: listBody }).expect(201);
    expectError(await api.get("/api/v1/webhooks"), 401, "API key required");
    expectError(await webhooks(emu.key("catalog-only")), 403, "Insufficient permissions");
    expect((await api.get("/_emulator/stubs")).body.data.stubs[0].hits).toBe(0);
  });

  it("honours times, then the operation answers as usual", async () => {
    await stub({ operation: "webhooks.list", status: 200, body: listBody, times: 2 }).expect(201);
    expect((await webhooks().expect(200)).body).toEqual(listBody);
    expect((await webhooks().expect(200)).body).toEqual(listBody);
    expect((await webhooks().expect(200)).body.data).toEqual({ webhooks: [] });
  });

  it("matches by key name, path parameters, query and body members", async () => {
    await stub({ operation: "webhooks.list", match: { key: "revenue-share" }, status: 200, body: listBody }).expect(
      201,
    );
    expect((await webhooks().expect(200)).body.data).toEqual({ webhooks: [] });
    expect((await webhooks(emu.key("revenue-share")).expect(200)).body).toEqual(listBody);

    await stub({
      operation: "cards.get",
      match: { params: { id: "base1-5" } },
      status: 404,
      body: { success: false, error: "not_found", message: "gone" },
    }).expect(201);
    await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", emu.key("demo")).expect(200);
    expectError(await api.get("/api/v1/pokemon/cards/base1-5").set("X-API-Key", emu.key("demo")), 404, "not_found");

    const refused = { success: false, error: "invalid_url", message: "stubbed refusal" };
    await stub({
      operation: "webhooks.register",
      match: { body: { url: "https://refuse.example/x" } },
      status: 400,
      body: refused,
    }).expect(201);
    const send = (url: string) => api.post("/api/v1/webhooks").set("X-API-Key", emu.key("demo")).send({ url });
    expectError(await send("https://refuse.example/x"), 400, "invalid_url");
    expect((await send("http://127.0.0.1:9/hook")).status).toBe(201);
  });

  it("refuses a 2xx body that breaks the operation's contract, naming the pointer; unchecked: true sends it", async () => {
    const broken = { success: true, data: { webhooks: [{ ...hook, id: "7" }] } };
    const res = await stub({ operation: "webhooks.list", status: 200, body: broken });
    expectError(res, 400, "invalid_stub");
    expect(res.body.details).toEqual({ pointer: "/data/webhooks/0/id", problem: expect.any(String) });
    expect(res.body.message).toContain("body/data/webhooks/0/id");
    expectError(await stub({ operation: "webhooks.list", status: 201, body: listBody }), 400, "invalid_stub");
    expectError(await stub({ operation: "no.such", status: 200, body: listBody }), 400, "invalid_value");
    expect((await api.get("/_emulator/stubs")).body.data.stubs).toEqual([]);

    await stub({ operation: "webhooks.list", status: 200, body: broken, unchecked: true }).expect(201);
    expect((await webhooks().expect(200)).body).toEqual(broken);
  });

  it("marks stubbed answers in the journal", async () => {
    await stub({ operation: "webhooks.list", status: 200, body: listBody, times: 1 }).expect(201);
    await webhooks().expect(200);
    await webhooks().expect(200);
    const journal = (await api.get("/_emulator/requests").query({ operation: "webhooks.list" })).body.data
      .requests as JournalEntry[];
    expect(journal.map((e) => e.stub)).toEqual([null, "stub_1"]);
    expect(emu.requests.count({ stubbed: true })).toBe(1);
  });

  it("DELETE removes every stub, and reset() does too", async () => {
    await stub({ operation: "webhooks.list", status: 200, body: listBody }).expect(201);
    expect((await api.delete("/_emulator/stubs").expect(200)).body.data).toEqual({ cleared: 1 });
    expect((await webhooks().expect(200)).body.data).toEqual({ webhooks: [] });
    emu.stubs.add({ operation: "webhooks.list", status: 200, body: listBody });
    await emu.reset();
    expect(emu.stubs.list()).toEqual([]);
    expect((await webhooks().expect(200)).body.data).toEqual({ webhooks: [] });
  });
});
