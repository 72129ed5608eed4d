import { describe, expect, it } from "vitest";
import { apiRoutes } from "../../emulator/app.ts";
import { type Api, useEmulator } from "../helpers.ts";
import { shippable, US_ADDRESS } from "./helpers.ts";
import { expectWarehouseError } from "../../conformance/assert.ts";

// The warehouse routes declare what they take and answer (route schemas):
// every answer a test sees is checked against them, the OpenAPI document is
// written from them, and a 400 names its field. Checks that stay rules keep
// their place: the shared address and carrier rules after the ids, and the
// record's 404/409 before the body of an update, an attachment or a note.

let api: Api;
let tenant: string;
useEmulator((ctx) => ({ api, tenant } = { ...ctx, tenant: ctx.emu.key("tenant") }));

const send = (method: "post" | "patch", path: string, body: unknown) =>
  api[method](path)
    .set("X-API-Key", tenant)
    .send(body as object);
const get = (path: string) => api.get(path).set("X-API-Key", tenant);

type Op = {
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }> };
  parameters?: { name: string; in: string }[];
  responses: Record<
    string,
    { content: Record<string, { schema: { allOf?: { properties?: { code?: { enum: string[] } } }[] } }> }
  >;
};

describe("every warehouse route declares its schema", () => {
  it("with a success status (a new route without one fails here)", () => {
    const routes = apiRoutes.filter((r) => r.envelope === "warehouse");
    expect(routes.length).toBeGreaterThanOrEqual(39);
    expect(routes.filter((r) => !r.schema).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(
      routes
        .filter((r) => !Object.keys(r.schema!.responses).some((s) => Number(s) < 300))
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
  });

  it("the OpenAPI document carries them: bodies checked late are documented, codes under `code`", async () => {
    const doc = (await api.get("/_emulator/openapi.json")).body as {
      paths: Record<string, Record<string, Op>>;
    };
    const patch = doc.paths["/api/v1/inbound-shipments/{inbound_shipment_id}"]!.patch!;
    expect(Object.keys(patch.requestBody!.content["application/json"]!.schema.properties).sort()).toEqual([
      "carrier",
      "declared_value_per_card",
      "expected_card_count",
      "notes",
      "site_id",
      "tracking_number",
    ]);
    expect(patch.responses["409"]!.content["application/json"]!.schema.allOf![1]!.properties!.code!.enum).toEqual([
      "invalid_status",
    ]);
    const attach =
      doc.paths["/api/v1/inbound-shipments/{inbound_shipment_id}/attachments"]!.post!.requestBody!.content[
        "application/json"
      ]!.schema;
    expect(attach.required).toEqual(["filename", "content_type"]);
    const transfer =
      doc.paths["/api/v1/cards/{unique_id}/transfer"]!.post!.requestBody!.content["application/json"]!.schema;
    expect(Object.keys(transfer.properties).sort()).toEqual(["idempotency_key", "note", "to_account_id", "to_tenant"]);
    const quote = doc.paths["/api/v1/shipping-quote"]!.post!;
    expect(quote.requestBody!.content["application/json"]!.schema.properties.address).toMatchObject({
      type: "object",
      required: ["name", "street1", "city", "zip", "country"],
    });
    expect(quote.responses["400"]!.content["application/json"]!.schema.allOf![1]!.properties!.code!.enum).toEqual(
      expect.arrayContaining([
        "invalid_unique_ids",
        "invalid_pagination",
        "identifier_too_long",
        "missing_shipping_address",
        "invalid_address",
        "phone_required",
        "unknown_carrier",
      ]),
    );
    expect(doc.paths["/api/v1/cards"]!.get!.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual([
      "query:offset",
      "query:limit",
      "query:since",
      "query:type",
    ]);
  });
});

describe("input as the schemas read it", () => {
  it("a 400 names its field in the message and details", async () => {
    const s = (
      await send("post", "/api/v1/inbound-shipments", { expected_card_count: 1, declared_value_per_card: 100 }).expect(
        201,
      )
    ).body.data;
    const res = await send("patch", `/api/v1/inbound-shipments/${s.inbound_shipment_id}`, {
      tracking_number: 7,
    }).expect(400);
    expectWarehouseError(res, 400, "invalid_tracking_number");
    expect(res.body.message).toMatch(/^tracking_number: /);
    expect(res.body.details).toEqual({ field: "tracking_number", part: "body" });
    const dv = await send("post", "/api/v1/declared-values", { unique_id: "CARD-X", amount: 1.5 }).expect(400);
    expectWarehouseError(dv, 400, "invalid_amount");
    expect(dv.body.details).toEqual({ field: "amount", part: "body" });
  });

  it("an answer of each kind matches its declaration (a shipment by id, a filtered list in any case)", async () => {
    const s = (
      await send("post", "/api/v1/inbound-shipments", {
        expected_card_count: 2,
        declared_value_per_card: 250,
        carrier: "ups",
      }).expect(201)
    ).body.data;
    const one = await get(`/api/v1/inbound-shipments/${s.inbound_shipment_id}`).expect(200);
    expect(one.body.data).toMatchObject({
      inbound_shipment_id: s.inbound_shipment_id,
      status: "ANNOUNCED",
      carrier: "ups",
      declared_value_per_card: 250,
    });
    const listed = await get("/api/v1/inbound-shipments?status=announced&limit=1").expect(200);
    expect(listed.body.data.inbound_shipments).toHaveLength(1);
    expect(listed.body.pagination).toMatchObject({ limit: 1, offset: 0 });
  });

  it("unique_ids: over 500 entries is invalid_pagination before the entries are read; a long entry is identifier_too_long", async () => {
    const many = [5, ...Array.from({ length: 500 }, (_, i) => `CARD-X${i}`)];
    expectWarehouseError(
      await send("post", "/api/v1/shipping-quote", { unique_ids: many, address: US_ADDRESS }),
      400,
      "invalid_pagination",
    );
    expectWarehouseError(
      await send("post", "/api/v1/withdrawals", { unique_ids: ["CARD-A", "x".repeat(256)] }),
      400,
      "identifier_too_long",
    );
    expectWarehouseError(
      await send("post", "/api/v1/withdrawals", { unique_ids: ["CARD-A", 5] }),
      400,
      "invalid_unique_ids",
    );
  });

  it("the quote checks the address and carriers (shared rules) after the ids, and takes shipping_address as an alias", async () => {
    const [id] = await shippable(api, tenant);
    expectWarehouseError(
      await send("post", "/api/v1/shipping-quote", { unique_ids: [], carriers: ["fedex"] }),
      400,
      "invalid_unique_ids",
    );
    expectWarehouseError(
      await send("post", "/api/v1/shipping-quote", { unique_ids: [id], carriers: ["fedex"] }),
      400,
      "missing_shipping_address",
    );
    const bad = await send("post", "/api/v1/shipping-quote", {
      unique_ids: [id],
      address: { ...US_ADDRESS, zip: "x" },
    }).expect(400);
    expectWarehouseError(bad, 400, "invalid_address");
    expect(bad.body.details).toMatchObject({ field: "zip", fields: ["zip"] });
    const q = await send("post", "/api/v1/shipping-quote", {
      unique_ids: [id],
      shipping_address: US_ADDRESS,
      carriers: "usps",
    }).expect(200);
    expect(q.body.data.rates.every((r: { carrier: string }) => r.carrier === "usps")).toBe(true);
  });

  it("a transfer takes to_tenant as an alias; a pickup withdrawal ignores an address", async () => {
    const [a, b] = await shippable(api, tenant, 2);
    await api.post("/_emulator/keys").send({ kind: "tenant", account_id: "globex" }).expect(201);
    const tr = await send("post", `/api/v1/cards/${a}/transfer`, { to_tenant: "globex", note: "gift" }).expect(201);
    expect(tr.body.data).toMatchObject({ unique_id: a, to_account: "globex", note: "gift" });
    const w = await send("post", "/api/v1/withdrawals", {
      unique_ids: [b],
      method: "pickup",
      address: "ignored",
    }).expect(201);
    expect(w.body.data).toMatchObject({ method: "pickup", address: null });
  });

  it("updates and attachments: invalid JSON and the key come first, then the shipment's 404, then the fields", async () => {
    const missing = "/api/v1/inbound-shipments/999999";
    expectWarehouseError(
      await api.patch(missing).set("X-API-Key", tenant).set("Content-Type", "application/json").send("{oops"),
      400,
      "invalid_json",
    );
    expectWarehouseError(
      await send("post", `${missing}/attachments`, { idempotency_key: 7, filename: 5 }),
      400,
      "invalid_idempotency_key",
    );
    expectWarehouseError(await send("post", `${missing}/attachments`, { filename: 5 }), 404, "not_found");
    const s = (
      await send("post", "/api/v1/inbound-shipments", { expected_card_count: 1, declared_value_per_card: 100 }).expect(
        201,
      )
    ).body.data;
    const path = `/api/v1/inbound-shipments/${s.inbound_shipment_id}/attachments`;
    expectWarehouseError(
      await send("post", path, { filename: "a.pdf", content_type: "application/pdf", size_bytes: -1 }),
      400,
      "invalid_attachment",
    );
    const att = await send("post", path, { filename: "a.pdf", content_type: "application/pdf" }).expect(201);
    expect(att.body.data).toMatchObject({
      inbound_shipment_id: s.inbound_shipment_id,
      filename: "a.pdf",
      size_bytes: null,
    });
  });
});
