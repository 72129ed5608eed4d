import { defineControl, type ControlSpec } from "../../control/route.ts";
import { badInput, listLimit, missing, newestFirst, opt, text, wholeUnits } from "../../control/schemas.ts";
import { accountOf } from "../../control/account.ts";
import { badRequest } from "../../pipeline/errors.ts";
import { parseUsdc, usdc } from "../../../contract/money.ts";
import { created, ok } from "../../pipeline/route.ts";
import { identifier, z } from "../../pipeline/schema.ts";
import { chainOf, ownerWrite, packetType, packetTypes } from "./chain-io.ts";
import { formatPurchase } from "./format.ts";
import { operatorRefund } from "./purchases.ts";
import { InstantPurchase } from "../../../contract/index.ts";
import { instant } from "./state.ts";
import { publishedEvents } from "../../events/log.ts";
import { INSTANT_EVENT_TYPES } from "./payloads.ts";
import { armInstantWorker } from "./worker.ts";
import { reserveCustodial } from "./custodial.ts";

// Operator actions of the instant area under /_emulator/instant: the
// instant_disabled switch, refunds and failures of unopened purchases (paid
// back on chain), restock and price changes on the store contract, the event log.

const typeSchema = z.object({
  packet_type_id: z.number().int(),
  price_usdc: z.string(),
  available_packs: z.number().int(),
});
const idParam = z.object({ id: z.coerce.number().int().min(1) });
const purchaseAnswer = { description: "The purchase after the action", data: InstantPurchase };
const conflictAnswer = {
  description: "The purchase is not an unopened SUBMITTED one",
  codes: ["invalid_status"],
} as const;

async function knownType(c: { services: Parameters<typeof chainOf>[0] }, id: number) {
  const t = await packetType(chainOf(c.services), id);
  if (!t) throw badRequest("invalid_value", `packet_type_id ${id} is not an instant pack`);
  return t;
}

export const instantControl: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/instant",
    describe: "The instant switch and every packet type's live price and stock",
    schema: {
      responses: {
        200: { description: "State", data: z.object({ enabled: z.boolean(), packet_types: z.array(typeSchema) }) },
      },
    },
    handle: async (c) => {
      const types = c.services.chainHost ? await packetTypes(chainOf(c.services)) : [];
      return ok({
        enabled: instant(c.services).enabled,
        packet_types: types.map((t) => ({
          packet_type_id: t.packetTypeId,
          price_usdc: usdc(t.price),
          available_packs: t.stock,
        })),
      });
    },
  }),
  defineControl({
    method: "GET",
    path: "/instant/purchases",
    describe:
      "Every partner's instant purchases, newest first, in the wire shape with the owning account (?limit=, default 50)",
    schema: {
      query: z.object({ limit: listLimit() }),
      responses: {
        200: {
          description: "Purchases, newest first",
          data: z.object({ purchases: z.array(InstantPurchase.extend({ account_id: z.string() })) }),
        },
        400: { description: "limit is not an integer from 1 to 1000", codes: ["invalid_value"] },
      },
    },
    handle: (c) =>
      ok({
        purchases: newestFirst(instant(c.services).purchases, (p) => p.id, c.input.query.limit).map((p) => ({
          ...formatPurchase(c.services, p),
          account_id: p.account_id,
        })),
      }),
  }),
  defineControl({
    method: "POST",
    path: "/instant/enabled",
    describe:
      "Instant switch {enabled: boolean}: off → prepare and submit answer 503 instant_disabled (retryable); on → back to normal",
    schema: {
      body: z.object({ enabled: z.boolean({ error: "enabled must be true or false" }) }),
      responses: { 200: { description: "The switch now", data: z.object({ enabled: z.boolean() }) }, 400: badInput },
    },
    handle: (c) => {
      instant(c.services).enabled = c.input.body.enabled;
      return ok({ enabled: c.input.body.enabled });
    },
  }),
  defineControl({
    method: "POST",
    path: "/instant/purchases/:id/refund",
    describe:
      "Pays an unopened (SUBMITTED) instant purchase back on chain → REFUNDED (instant_purchase.refunded); its stock returns",
    schema: {
      params: idParam,
      responses: { 200: purchaseAnswer, 400: badInput, 404: missing("instant purchase"), 409: conflictAnswer },
    },
    handle: async (c) => {
      const row = await operatorRefund(c.services, c.input.params.id, null);
      armInstantWorker(c.services);
      return ok(formatPurchase(c.services, row));
    },
  }),
  defineControl({
    method: "POST",
    path: "/instant/purchases/:id/fail",
    describe:
      "Fails an unopened (SUBMITTED) instant purchase {reason?}: paid back on chain → FAILED (instant_purchase.failed)",
    schema: {
      params: idParam,
      body: z.object({ reason: opt(z.string().min(1)) }),
      responses: { 200: purchaseAnswer, 400: badInput, 404: missing("instant purchase"), 409: conflictAnswer },
    },
    handle: async (c) => {
      const row = await operatorRefund(c.services, c.input.params.id, c.input.body.reason ?? "operator_failed");
      armInstantWorker(c.services);
      return ok(formatPurchase(c.services, row));
    },
  }),
  defineControl({
    method: "POST",
    path: "/instant/restock",
    describe: "Adds {count} new bundles to {packet_type_id} on the store contract",
    schema: {
      body: z.object({ packet_type_id: z.number().int().min(1), count: z.number().int().min(1).max(1000) }),
      responses: { 200: { description: "The packet type now", data: typeSchema }, 400: badInput },
    },
    handle: async (c) => {
      const { packet_type_id, count } = c.input.body;
      await knownType(c, packet_type_id);
      await ownerWrite(chainOf(c.services), { functionName: "restock", args: [packet_type_id, count] });
      const t = await knownType(c, packet_type_id);
      return ok({ packet_type_id, price_usdc: usdc(t.price), available_packs: t.stock });
    },
  }),
  defineControl({
    method: "POST",
    path: "/instant/price",
    describe:
      "Sets {packet_type_id}'s price to {usdc} on the store contract (prepares made before keep their max price cap)",
    schema: {
      body: z.object({ packet_type_id: z.number().int().min(1), usdc: wholeUnits() }),
      responses: { 200: { description: "The packet type now", data: typeSchema }, 400: badInput },
    },
    handle: async (c) => {
      const { packet_type_id } = c.input.body;
      const price = parseUsdc(c.input.body.usdc);
      if (price === null || price === 0n)
        throw badRequest("invalid_value", "usdc must be a positive decimal USDC amount");
      await knownType(c, packet_type_id);
      await ownerWrite(chainOf(c.services), { functionName: "setPrice", args: [packet_type_id, price] });
      const t = await knownType(c, packet_type_id);
      return ok({ packet_type_id, price_usdc: usdc(t.price), available_packs: t.stock });
    },
  }),
  defineControl({
    method: "POST",
    path: "/instant/custodial",
    describe:
      "A custodial instant purchase made outside the partner API {key | account_id, packet_type_id, external_user_id}: RESERVED (instant_purchase.reserved), the relayer buys and opens it on chain for the end user's custodial wallet 2 s later (SUBMITTED), then the draw (FULFILLED); paid back on chain → the end user's balance is credited. Relayer off (POST /_emulator/mystery/relayer) → 503 relayer_disabled, and a reserved one waits PENDING",
    schema: {
      body: z.object({
        key: opt(text()),
        account_id: opt(text()),
        packet_type_id: z.number().int().min(1),
        external_user_id: identifier(text()),
      }),
      responses: {
        201: { description: "The purchase, RESERVED", data: InstantPurchase },
        400: {
          description: "A field is missing or invalid",
          codes: ["invalid_value", "invalid_json", "identifier_too_long"],
        },
        402: {
          description: "The end user's custodial balance does not cover the price",
          codes: ["insufficient_funds"],
        },
        404: missing("key"),
        409: { description: "The pack is sold out", codes: ["sold_out"] },
        503: {
          description:
            "Instant packs are off, the relayer is off (nothing held), or the emulator runs without its chain",
          codes: ["instant_disabled", "relayer_disabled", "chain_unavailable"],
        },
      },
    },
    handle: async (c) => {
      const b = c.input.body;
      const account = accountOf(c.services, b);
      const row = reserveCustodial(c.services, account, await knownType(c, b.packet_type_id), b.external_user_id);
      armInstantWorker(c.services);
      return created(formatPurchase(c.services, row));
    },
  }),
  defineControl({
    method: "GET",
    path: "/instant/events",
    describe: "Events the instant area published (?account_id=&type=), oldest first",
    schema: {
      query: z.object({ account_id: z.string().optional(), type: z.string().optional() }),
      responses: {
        200: {
          description: "The events",
          data: z.object({
            events: z.array(
              z.object({
                type: z.string(),
                account_id: z.string(),
                key: z.string(),
                data: z.record(z.string(), z.unknown()),
                at: z.string(),
              }),
            ),
          }),
        },
      },
    },
    handle: (c) => {
      const { account_id, type } = c.input.query;
      return ok({ events: publishedEvents(c.services, INSTANT_EVENT_TYPES, { account_id, type }) });
    },
  }),
];
