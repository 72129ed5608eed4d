import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { formatPurchase } from "../../emulator/areas/mystery/purchases/purchases.ts";
import { Purchase } from "../../contract/index.ts";
import type { PurchaseRow } from "../../emulator/areas/mystery/state.ts";
import { purchaseRow } from "./rows.ts";

// The purchase answers in the SDK's shapes (SDK 0.1.2 gacha types, docs/mystery.md):
// the documented operations carry the SDK's method names, gacha.purchase requires
// its Idempotency-Key header, a reveal item's empty values are null, and the
// call kinds are the SDK's whole set.

type Schema = {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: string[];
  allOf?: Schema[];
};
type Op = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, Schema> } };

let emu: Emulator;
let doc: Doc;
beforeAll(async () => {
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0 });
  doc = (await request(emu.url).get("/_emulator/openapi.json")).body as Doc;
});
afterAll(() => emu.close());

const op = (method: string, path: string) => doc.paths[`/api/v1${path}`]![method]!;
/** A named shape is a component the answer refers to. */
const deref = (s: Schema): Schema =>
  s.$ref ? doc.components.schemas[s.$ref.replace("#/components/schemas/", "")]! : s;
const dataOf = (o: Op, status: string) =>
  deref(o.responses[status]!.content!["application/json"]!.schema.allOf![1]!.properties!.data!);
const nullable = (s: Schema): boolean =>
  (Array.isArray(s.type) ? s.type.includes("null") : s.type === "null") || (s.anyOf ?? []).some(nullable);

describe("purchase operations in the OpenAPI document", () => {
  it("carry the SDK's method names", () => {
    const ids = [
      ["post", "/mystery/purchase", "gacha.purchase"],
      ["get", "/mystery/purchase/{id}", "gacha.getPurchase"],
      ["get", "/mystery/purchases", "gacha.listPurchases"],
      ["post", "/mystery/purchase/prepare", "gacha.prepare"],
      ["post", "/mystery/purchase/submit", "gacha.submit"],
      ["get", "/instant/catalog", "instant.catalog"],
      ["get", "/instant/purchase/{id}", "instant.getPurchase"],
      ["get", "/instant/purchases", "instant.listPurchases"],
      ["post", "/instant/purchase/prepare", "instant.prepare"],
      ["post", "/instant/purchase/submit", "instant.submit"],
    ] as const;
    for (const [method, path, id] of ids) expect(op(method, path).operationId, `${method} ${path}`).toBe(id);
  });

  it("gacha.purchase requires the Idempotency-Key header", () => {
    const header = op("post", "/mystery/purchase").parameters?.find(
      (p) => p.in === "header" && p.name === "Idempotency-Key",
    );
    expect(header?.required).toBe(true);
  });

  it("a purchase's purchaser_address and a reveal item's empty values are nullable", () => {
    for (const [method, path, status] of [
      ["post", "/mystery/purchase", "202"],
      ["post", "/mystery/purchase/submit", "202"],
      ["get", "/mystery/purchase/{id}", "200"],
    ] as const) {
      const p = dataOf(op(method, path), status);
      expect(nullable(p.properties!.purchaser_address!), `${path} purchaser_address`).toBe(true);
      const item = deref(p.properties!.items!.items!).properties!;
      for (const f of ["card_id", "name", "image_url", "value_usd", "rarity", "card_number", "set_id"])
        expect(nullable(item[f]!), `${path} items[].${f}`).toBe(true);
    }
  });

  it("gacha.prepare's call kinds are the SDK's whole set", () => {
    const kind = deref(dataOf(op("post", "/mystery/purchase/prepare"), "200").properties!.calls!.items!).properties!
      .kind!;
    expect([...kind.enum!].sort()).toEqual([
      "burn",
      "erc20-approve",
      "purchase",
      "sellback",
      "set-approval-for-all",
      "shipping-payment",
    ]);
  });
});

describe("reveal items on the wire", () => {
  const row = (items: NonNullable<PurchaseRow["items"]>): PurchaseRow => ({ ...purchaseRow(5001), items });

  it("an unknown token names card_id null; a card without a rarity answers rarity null", () => {
    const wire = formatPurchase(
      row([
        {
          token_id: "7",
          item_type: "CARD",
          category: "unknown",
          name: "Card",
          image_url: null,
          value_usd: "1.00",
          group_id: 1,
        },
        {
          token_id: "8",
          item_type: "CARD",
          category: "card",
          card_id: "base1-4",
          name: "Charizard",
          image_url: null,
          value_usd: "2.00",
          card_number: "4",
          set_id: "base1",
          group_id: 1,
        },
      ]),
    );
    expect(wire.items![0]).toMatchObject({ category: "unknown", card_id: null });
    expect(wire.items![1]).toMatchObject({
      category: "card",
      card_id: "base1-4",
      rarity: null,
      card_number: "4",
      set_id: "base1",
    });
    expect(wire.items!.every((i) => !("group_id" in i))).toBe(true);
  });

  it("a purchase carries the SDK's fields and external_user_id, no aliases", () => {
    const wire = formatPurchase(row([]));
    // Exactly the contract's fields (contract/mystery/purchases.ts `Purchase`, the SDK's shape): none missing, no alias
    // beside them; the list lives in the contract only, so a new field is added there and here nothing changes.
    expect(Object.keys(wire).sort()).toEqual(Object.keys(Purchase.shape).sort());
    expect(Object.keys(wire)).toEqual(expect.arrayContaining(["external_user_id", "memo", "volume_usdc", "items"]));
    expect(wire).toMatchObject({
      id: 5001,
      memo: "acme-5001",
      volume_usdc: "25.000000",
      onchain_request_id: "1",
      items: [],
    });
  });
});
