import { describe, it, expect } from "vitest";
import { startEmulator, newKey, type Api, type Emulator, useEmulator } from "../helpers.ts";
import { EVENT_TYPES, NOT_LIVE_EVENT_TYPES } from "../../emulator/events/types.ts";
import { expectError } from "../../conformance/assert.ts";

// The registry: register (secret once), list, get, change, delete, the event
// type and URL rules and the 20-per-key limit.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

const HOOK = "https://hooks.example.com/cardos";
const partner = () => newKey(api, { kind: "partner" });

describe("register and read back", () => {
  it("POST returns 201 with a 64-hex signing secret; GET and list never show it", async () => {
    const key = await partner();
    const res = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", key)
      .send({ url: HOOK, event_types: ["purchase.fulfilled"] })
      .expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        url: HOOK,
        event_types: ["purchase.fulfilled"],
        is_active: true,
        created_at: "2026-01-15T12:00:00.000Z",
        updated_at: "2026-01-15T12:00:00.000Z",
        signing_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    const id = res.body.data.id as number;
    const got = await api.get(`/api/v1/webhooks/${id}`).set("X-API-Key", key).expect(200);
    expect(got.body.data.webhook).toEqual({ ...res.body.data, signing_secret: undefined });
    expect(JSON.stringify(got.body)).not.toContain(res.body.data.signing_secret);
    const list = await api.get("/api/v1/webhooks").set("X-API-Key", key).expect(200);
    expect(list.body.data.webhooks).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(res.body.data.signing_secret);
    expect(list.body.pagination).toBeUndefined();
  });

  it("event_types omitted or null means every event ([]), duplicates collapse", async () => {
    const key = await partner();
    const a = await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: HOOK }).expect(201);
    expect(a.body.data.event_types).toEqual([]);
    const b = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", key)
      .send({ url: HOOK, event_types: null })
      .expect(201);
    expect(b.body.data.event_types).toEqual([]);
    const c = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", key)
      .send({ url: HOOK, event_types: ["payout.paid", "payout.paid"] })
      .expect(201);
    expect(c.body.data.event_types).toEqual(["payout.paid"]);
  });

  it("accepts every live event type, partner and warehouse", async () => {
    const key = await partner();
    const res = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", key)
      .send({ url: HOOK, event_types: [...EVENT_TYPES] })
      .expect(201);
    expect(res.body.data.event_types).toHaveLength(EVENT_TYPES.length);
  });

  it("a tenant key registers and manages its own webhooks", async () => {
    const tenant = emu.key("tenant");
    const res = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", tenant)
      .send({ url: HOOK, event_types: ["order.returned"] })
      .expect(201);
    await api.get(`/api/v1/webhooks/${res.body.data.id}`).set("X-API-Key", tenant).expect(200);
    await api.delete(`/api/v1/webhooks/${res.body.data.id}`).set("X-API-Key", tenant).expect(200);
  });

  it("needs webhooks:manage (403, never 401 for a valid key); legacy keys are refused", async () => {
    const noScope = await newKey(api, { kind: "partner", scopes: ["packs:read"] });
    const r = await api.get("/api/v1/webhooks").set("X-API-Key", noScope).expect(403);
    expect(r.body.error).toBe("Insufficient permissions");
    expectError(
      await api.post("/api/v1/webhooks").set("X-API-Key", emu.key("legacy")).send({ url: HOOK }),
      403,
      "Insufficient permissions",
    );
    expectError(
      await api.get("/api/v1/webhooks/deliveries").set("X-API-Key", emu.key("tenant-readonly")),
      403,
      "Insufficient permissions",
    );
    expectError(await api.get("/api/v1/webhooks"), 401, "API key required");
  });

  it("is not metered", async () => {
    const res = await api
      .get("/api/v1/webhooks")
      .set("X-API-Key", await partner())
      .expect(200);
    expect(res.headers["x-credits-cost"]).toBeUndefined();
  });
});

describe("validation (nothing is written on a 400)", () => {
  it("unknown and not-live event types → 400 invalid_event_types naming them", async () => {
    const key = await partner();
    const unknown = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", key)
      .send({ url: HOOK, event_types: ["purchase.fulfilled", "purchase.exploded"] })
      .expect(400);
    expect(unknown.body).toMatchObject({
      success: false,
      error: "invalid_event_types",
      details: { unknown: ["purchase.exploded"] },
    });
    for (const t of NOT_LIVE_EVENT_TYPES) {
      const r = await api
        .post("/api/v1/webhooks")
        .set("X-API-Key", key)
        .send({ url: HOOK, event_types: [t] })
        .expect(400);
      expect(r.body).toMatchObject({ error: "invalid_event_types", details: { not_live: [t] } });
    }
    for (const bad of ["purchase.fulfilled", [1], {}]) {
      const r = await api
        .post("/api/v1/webhooks")
        .set("X-API-Key", key)
        .send({ url: HOOK, event_types: bad })
        .expect(400);
      expect(r.body.error).toBe("invalid_event_types");
    }
    const list = await api.get("/api/v1/webhooks").set("X-API-Key", key).expect(200);
    expect(list.body.data.webhooks).toEqual([]);
  });

  it("a missing or malformed url → 400 invalid_url; a non-object body → 400", async () => {
    const key = await partner();
    for (const url of [
      undefined,
      "",
      "not a url",
      "ftp://example.com/x",
      "file:///etc/passwd",
      42,
      `https://e.com/${"x".repeat(2100)}`,
    ]) {
      const r = await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url }).expect(400);
      expect(r.body.error).toBe("invalid_url");
    }
    const arr = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", key)
      .set("content-type", "application/json")
      .send("[1]")
      .expect(400);
    expect(arr.body.error).toBe("invalid_json");
    const junk = await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", key)
      .set("content-type", "application/json")
      .send("{nope")
      .expect(400);
    expect(junk.body.error).toBe("invalid_json");
  });

  it("by default http and loopback URLs are accepted (local receivers)", async () => {
    const key = await partner();
    for (const url of [
      "http://127.0.0.1:9999/hook",
      "http://localhost:3000/webhooks",
      "https://[::1]:8443/x",
      "http://192.168.1.20/hook",
      "http://localhost.:3000/x",
      "https://[::ffff:127.0.0.1]/x",
    ])
      await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url }).expect(201);
  });
});

describe("the 20-per-key limit", () => {
  it("the 21st is 409 webhook_limit; another key is not affected; deleting frees a slot", async () => {
    const key = await partner();
    const ids: number[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(
        (
          await api
            .post("/api/v1/webhooks")
            .set("X-API-Key", key)
            .send({ url: `${HOOK}/${i}` })
            .expect(201)
        ).body.data.id,
      );
    const over = await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: HOOK }).expect(409);
    expect(over.body).toMatchObject({ success: false, error: "webhook_limit" });
    expect((await api.get("/api/v1/webhooks").set("X-API-Key", key)).body.data.webhooks).toHaveLength(20);
    await api
      .post("/api/v1/webhooks")
      .set("X-API-Key", await partner())
      .send({ url: HOOK })
      .expect(201);
    await api.delete(`/api/v1/webhooks/${ids[0]}`).set("X-API-Key", key).expect(200);
    await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: HOOK }).expect(201);
  });
});

describe("get, change, delete", () => {
  it("another key's webhook, a missing id and a non-numeric id are 404 not_found", async () => {
    const owner = await partner();
    const id = (await api.post("/api/v1/webhooks").set("X-API-Key", owner).send({ url: HOOK }).expect(201)).body.data
      .id;
    const other = await partner();
    for (const path of [`/api/v1/webhooks/${id}`, "/api/v1/webhooks/999999", "/api/v1/webhooks/abc"]) {
      const r = await api.get(path).set("X-API-Key", other).expect(404);
      expect(r.body).toMatchObject({ success: false, error: "not_found" });
    }
    expectError(
      await api.patch(`/api/v1/webhooks/${id}`).set("X-API-Key", other).send({ is_active: false }),
      404,
      "not_found",
    );
    expectError(await api.delete(`/api/v1/webhooks/${id}`).set("X-API-Key", other), 404, "not_found");
    await api.get(`/api/v1/webhooks/${id}`).set("X-API-Key", owner).expect(200);
  });

  it("PATCH and PUT change url, event_types and is_active and bump updated_at", async () => {
    const key = await partner();
    const id = (await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: HOOK }).expect(201)).body.data.id;
    await emu.clock.advance(60_000);
    const p = await api
      .patch(`/api/v1/webhooks/${id}`)
      .set("X-API-Key", key)
      .send({ is_active: false, event_types: ["buyback.confirmed"] })
      .expect(200);
    expect(p.body.data.webhook).toMatchObject({
      id,
      url: HOOK,
      is_active: false,
      event_types: ["buyback.confirmed"],
      created_at: "2026-01-15T12:00:00.000Z",
    });
    expect(p.body.data.webhook.updated_at).not.toBe(p.body.data.webhook.created_at);
    expect(p.body.data.webhook.signing_secret).toBeUndefined();
    const put = await api
      .put(`/api/v1/webhooks/${id}`)
      .set("X-API-Key", key)
      .send({ url: `${HOOK}/v2`, event_types: [] })
      .expect(200);
    expect(put.body.data.webhook).toMatchObject({ url: `${HOOK}/v2`, event_types: [], is_active: false });
    const bad = await api
      .patch(`/api/v1/webhooks/${id}`)
      .set("X-API-Key", key)
      .send({ url: "nope", is_active: true })
      .expect(400);
    expect(bad.body.error).toBe("invalid_url");
    expect((await api.get(`/api/v1/webhooks/${id}`).set("X-API-Key", key)).body.data.webhook.is_active).toBe(false);
    expectError(
      await api
        .patch(`/api/v1/webhooks/${id}`)
        .set("X-API-Key", key)
        .send({ event_types: ["card.added"] }),
      400,
      "invalid_event_types",
    );
    expectError(
      await api.patch(`/api/v1/webhooks/${id}`).set("X-API-Key", key).send({ is_active: "yes" }),
      400,
      "invalid_value",
    );
    expectError(await api.patch(`/api/v1/webhooks/${id}`).set("X-API-Key", key).send({}), 400, "invalid_value");
  });

  it("DELETE answers {id, deleted:true}; afterwards the webhook is 404", async () => {
    const key = await partner();
    const id = (await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: HOOK }).expect(201)).body.data.id;
    const del = await api.delete(`/api/v1/webhooks/${id}`).set("X-API-Key", key).expect(200);
    expect(del.body).toEqual({ success: true, data: { id, deleted: true } });
    expectError(await api.get(`/api/v1/webhooks/${id}`).set("X-API-Key", key), 404, "not_found");
    expectError(await api.delete(`/api/v1/webhooks/${id}`).set("X-API-Key", key), 404, "not_found");
  });
});

describe("strict webhook URLs (the live SSRF guard)", () => {
  it("only public https is accepted", async () => {
    const strict = await startEmulator({ strictWebhookUrls: true });
    try {
      const key = strict.emu.key("demo");
      const refused = [
        "http://hooks.example.com/x",
        "https://localhost/x",
        "https://api.localhost/x",
        "https://printer.local/x",
        "https://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://172.20.0.5/x",
        "https://192.168.0.10/x",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/x",
        "https://0.0.0.0/x",
        "https://[::1]/x",
        "https://[fe80::1]/x",
        "https://[fd00::5]/x",
        "https://[::ffff:127.0.0.1]/x",
        // Reported against vision; the same classifier decides here.
        "https://[::ffff:10.0.0.1]/x",
        "https://localhost./x",
        "https://LOCALHOST./x",
        "https://0x7f000001/x",
        "https://0177.0.0.1/x",
        "https://127.1/x",
        "https://[::127.0.0.1]/x",
        "https://[64:ff9b::a9fe:a9fe]/x",
        "https://[2002:c0a8:1::]/x",
        "https://[::]/x",
        "https://224.0.0.1/x",
        "https://intranet/x",
      ];
      for (const url of refused) {
        const r = await strict.api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url });
        expect([url, r.status, r.body.error]).toEqual([url, 400, "invalid_url"]);
      }
      for (const url of [
        "https://hooks.example.com/x",
        "https://hooks.example.com./x",
        "https://8.8.8.8/x",
        "https://[2606:4700::1111]/x",
        "https://[::ffff:8.8.8.8]/x",
      ])
        await strict.api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url }).expect(201);
    } finally {
      await strict.close();
    }
  });
});
