import { describe, it, expect } from "vitest";
import { useCatalogKey, type Api } from "../helpers.ts";
import { responseProblem } from "../../emulator/pipeline/schema.ts";
import { catalogRoutes } from "../../emulator/areas/catalog/routes.ts";
import * as model from "../../emulator/catalog-data/model.ts";
import * as contract from "../../contract/index.ts";

// The Card Data area serves the contract's operations (contract/catalog/): the
// OpenAPI document names them as the official SDK does, the catalog model's wire
// enums are the contract's, and vision's candidates carry the contract's Card.

type Obj = Record<string, unknown>;
let api: Api;
let key: string;
useCatalogKey((c) => ({ api, key } = c));

const SDK_IDS: Record<string, string> = {
  "GET /api/v1/{game}/cards": "cards.search",
  "GET /api/v1/{game}/cards/{id}": "cards.get",
  "GET /api/v1/{game}/cards/{id}/printings": "cards.printings",
  "GET /api/v1/{game}/cards/{id}/prices": "cards.prices",
  "GET /api/v1/{game}/expansions": "expansions.search",
  "GET /api/v1/{game}/expansions/{id}": "expansions.get",
  "GET /api/v1/{game}/expansions/{id}/cards": "expansions.cards",
  "GET /api/v1/{game}/sealed": "sealed.search",
  "GET /api/v1/{game}/sealed/{id}": "sealed.get",
  "GET /api/v1/{game}/sealed/{id}/prices": "sealed.prices",
};

describe("Card Data operations come from the contract", () => {
  it("every catalog route serves a contract operation listed in OPERATIONS", () => {
    const declared = new Set(contract.OPERATIONS);
    const unserved = catalogRoutes
      .filter((r) => !r.operation || !declared.has(r.operation))
      .map((r) => `${r.method} ${r.path}`);
    expect(unserved).toEqual([]);
    expect(catalogRoutes).toHaveLength(14);
  });

  it("the OpenAPI document names each operation by the SDK's method, every id unique", async () => {
    const doc = (await api.get("/_emulator/openapi.json")).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const ids: Record<string, string> = {};
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) ids[`${method.toUpperCase()} ${path}`] = op.operationId;
    for (const [route, id] of Object.entries(SDK_IDS)) expect(ids[route], route).toBe(id);
    expect(ids["POST /api/v1/grading/certs/batch"]).toBe("grading.certs.batchPost");
    const all = Object.values(ids);
    expect(new Set(all).size).toBe(all.length);
  });

  it("the model's games, languages and sealed product types are the contract's own lists", () => {
    expect(model.GAMES).toBe(contract.GAMES);
    expect(model.LANGUAGES).toBe(contract.LANGUAGES);
    expect(model.SEALED_PRODUCT_TYPES).toBe(contract.SEALED_PRODUCT_TYPES);
  });
});

describe("vision candidates carry the contract's Card", () => {
  it("a real identification with include=prices matches the declared answer, pricing in full", async () => {
    const res = await api
      .post("/api/v1/vision/identify")
      .set("X-API-Key", key)
      .send({ image_url: "https://images.emulator.test/pokemon/base1-4/large.png", include: "prices" })
      .expect(200);
    const data = res.body.data as { candidates: { card: Obj }[] };
    expect(data.candidates.length).toBeGreaterThan(1);
    expect(responseProblem(contract.VISION.identify.schema, 200, data)).toBeNull();
    for (const c of data.candidates) expect(contract.Card.safeParse(c.card).success).toBe(true);
  });

  it("a candidate card missing a field the catalog always sends is outside the schema", async () => {
    const res = await api
      .post("/api/v1/vision/identify")
      .set("X-API-Key", key)
      .send({ image_url: "https://images.emulator.test/pokemon/base1-4/large.png" })
      .expect(200);
    const data = res.body.data as { match: { card: Obj }; candidates: { card: Obj }[] };
    const { images: _images, ...card } = data.match.card;
    const broken = {
      ...data,
      match: { ...data.match, card },
      candidates: data.candidates.map((c, i) => (i === 0 ? { ...c, card } : c)),
    };
    expect(responseProblem(contract.VISION.identify.schema, 200, broken)).toMatch(/images/);
  });
});
