import type { Services } from "../../pipeline/services.ts";
import { badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { idempotent } from "../../pipeline/idempotency.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { DEFAULT_SITE, SITES } from "../../../fixtures/warehouse/index.ts";
import { own } from "../../state/own.ts";
import { INBOUND_STATUSES, type Attachment, type CardRow, type InboundShipment, type TenantState } from "./model.ts";
import { cents, idempotentCreate, intParam, keyOf, list, optId, optStr, read, reqStr, scoped, statusFilter, tenant, write } from "./http.ts";
import { logActivity, monthOf, newUniqueId, usageOf } from "./state.ts";

// Inbound shipments: the tenant announces a package of cards; the operator
// receives it (control plane), and each card appears pending identity.
// Announcing is idempotent on `submission_key`: a replay answers 200 with
// `created: false` and the original shipment.

const READ = scoped("read:inventory");
const WRITE = scoped("write:inbound_shipment");
const MAX_CARDS = 5_000;
const ATTACHMENT_TYPES = ["application/pdf", "image/jpeg", "image/png", "image/webp", "text/csv"];

export function findShipment(t: TenantState, id: number): InboundShipment {
  const s = own(t.inbound, String(id));
  if (!s) throw notFound(`No inbound shipment ${id} for this tenant`);
  return s;
}

const shipmentOf = (c: HandlerContext) => findShipment(tenant(c), intParam(c, "inbound_shipment_id", "inbound shipment"));

const wire = (s: InboundShipment) => structuredClone(s);

function requireStatus(s: InboundShipment, allowed: readonly string[], action: string): void {
  if (!allowed.includes(s.status))
    throw conflict("invalid_status", `Inbound shipment ${s.inbound_shipment_id} is ${s.status}; cannot ${action}`, {
      data: wire(s),
      human: `The inbound shipment cannot ${action} in status ${s.status}`,
    });
}

function siteOf(b: Record<string, unknown>): string | undefined {
  const site = optId(b, "site_id", "invalid_site");
  if (site !== undefined && !SITES.some((s) => s.site_id === site && s.services.includes("inbound")))
    throw badRequest("invalid_site", `site_id must be a site that takes inbound shipments: ${SITES.filter((s) => s.services.includes("inbound")).map((s) => s.site_id).join(", ")}`);
  return site;
}

function cardCount(b: Record<string, unknown>, required: boolean): number | undefined {
  const v = b.expected_card_count;
  if (v === undefined || v === null) {
    if (required) throw badRequest("invalid_card_count", "expected_card_count is required (an integer from 1 to 5000)");
    return undefined;
  }
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > MAX_CARDS)
    throw badRequest("invalid_card_count", `expected_card_count must be an integer from 1 to ${MAX_CARDS}`);
  return v;
}

/** Operator action: the package arrives; `count` cards (default: the announced count) appear pending identity. */
export function receive(services: Services, t: TenantState, id: number, count?: number): { shipment: InboundShipment; cards: CardRow[] } {
  const s = findShipment(t, id);
  requireStatus(s, ["ANNOUNCED"], "be received");
  // Pending cards carry the tenant's declared value (interface combinations); only a state saved before announcing required one lacks it.
  const declared = s.declared_value_per_card;
  if (declared === null)
    throw conflict("invalid_status", `Inbound shipment ${id} has no declared_value_per_card; the tenant must PATCH one before it is received`, {
      data: wire(s),
      human: "The inbound shipment has no declared value per card",
    });
  const iso = services.clock.nowIso();
  const cards: CardRow[] = [];
  for (let i = 0; i < (count ?? s.expected_card_count); i++) {
    const card: CardRow = {
      unique_id: newUniqueId(services, t),
      type: "raw",
      identity: { status: "unconfirmed", card_id: null, name: null, game: null },
      pricing: { status: "unverified", market_price: null },
      insured_price: null,
      declared_value: { amount: declared, source: "tenant" },
      grading: null,
      location: "OFFCHAIN",
      status: "AVAILABLE",
      site_id: s.site_id,
      held_by: null,
      received_at: iso,
      updated_at: iso,
      rev: ++t.rev,
    };
    t.cards[card.unique_id] = card;
    cards.push(card);
  }
  Object.assign(s, { status: "RECEIVED", received_at: iso, updated_at: iso, received_unique_ids: cards.map((c) => c.unique_id) } satisfies Partial<InboundShipment>);
  usageOf(t, monthOf(iso)).inbound++;
  logActivity(services, t, "operator", "inbound.received", `Inbound shipment ${id} received: ${cards.length} card(s) pending identity`, { inbound_shipment_id: id });
  return { shipment: s, cards };
}

export const inboundRoutes: RouteSpec[] = [
  read("/inbound-shipments", READ, (c) => {
    const status = statusFilter(c, INBOUND_STATUSES);
    return list(c, "inbound_shipments", Object.values(tenant(c).inbound).filter((s) => !status || s.status === status).sort((a, b) => b.inbound_shipment_id - a.inbound_shipment_id).map(wire));
  }),
  read("/inbound-shipments/:inbound_shipment_id", READ, (c) => ok(wire(shipmentOf(c)))),
  read("/inbound-shipments/:inbound_shipment_id/attachments", READ, (c) => {
    const s = shipmentOf(c);
    return ok({ inbound_shipment_id: s.inbound_shipment_id, attachments: structuredClone(s.attachments) });
  }),

  write("POST", "/inbound-shipments", WRITE, async (c) => {
    const b = await c.object();
    const announce = () => {
      // Validate everything before taking an id: a rejected call leaves no trace.
      const fields = {
        site_id: siteOf(b) ?? DEFAULT_SITE,
        carrier: optStr(b, "carrier", "invalid_carrier", 64) ?? null,
        tracking_number: optStr(b, "tracking_number", "invalid_tracking_number", 128) ?? null,
        expected_card_count: cardCount(b, true) as number,
        // Required: the received cards are pending identity, and pending cards carry the tenant's declared value.
        declared_value_per_card: cents(b, "declared_value_per_card", true) as number,
        notes: optStr(b, "notes", "invalid_notes", 2000) ?? null,
      };
      const count = fields.expected_card_count;
      const t = tenant(c);
      const iso = c.services.clock.nowIso();
      const s: InboundShipment = {
        inbound_shipment_id: c.services.store.nextId("warehouse.inbound", 3001),
        submission_key: typeof b.submission_key === "string" ? b.submission_key : null,
        status: "ANNOUNCED",
        ...fields,
        attachments: [],
        received_unique_ids: [],
        created_at: iso,
        updated_at: iso,
        received_at: null,
        cancelled_at: null,
      };
      t.inbound[String(s.inbound_shipment_id)] = s;
      logActivity(c.services, t, keyOf(c).key, "inbound.announced", `Announced inbound shipment ${s.inbound_shipment_id} (${count} card(s))`, { inbound_shipment_id: s.inbound_shipment_id });
      return created({ ...wire(s), created: true });
    };
    if (b.submission_key === undefined || b.submission_key === null) return announce();
    if (typeof b.submission_key !== "string") throw badRequest("invalid_idempotency_key", "submission_key must be a string of at most 128 characters");
    const { submission_key: _k, ...fingerprint } = b;
    return idempotent(
      c.services.store,
      {
        scope: `warehouse:${keyOf(c).account_id}:inbound`,
        key: b.submission_key,
        fingerprint,
        now: c.services.clock.nowIso(),
        field: "submission_key",
        // A replay answers 200 with created:false and the shipment as it is now.
        replay: (original) => {
          const id = (original.data as { inbound_shipment_id: number }).inbound_shipment_id;
          const current = own(tenant(c).inbound, String(id));
          return { status: 200, data: { ...(current ? wire(current) : (original.data as object)), created: false } };
        },
      },
      announce,
    );
  }),

  write("PATCH", "/inbound-shipments/:inbound_shipment_id", WRITE, async (c) => {
    const b = await c.object();
    const s = shipmentOf(c);
    requireStatus(s, ["ANNOUNCED"], "be updated");
    const changes: Partial<InboundShipment> = {};
    if ("carrier" in b) changes.carrier = optStr(b, "carrier", "invalid_carrier", 64) ?? null;
    if ("tracking_number" in b) changes.tracking_number = optStr(b, "tracking_number", "invalid_tracking_number", 128) ?? null;
    if ("notes" in b) changes.notes = optStr(b, "notes", "invalid_notes", 2000) ?? null;
    if ("expected_card_count" in b) changes.expected_card_count = cardCount(b, true);
    if ("declared_value_per_card" in b) changes.declared_value_per_card = cents(b, "declared_value_per_card", true);
    if ("site_id" in b) changes.site_id = siteOf(b) ?? DEFAULT_SITE;
    if (Object.keys(changes).length === 0)
      throw badRequest("invalid_update", "Nothing to update: send carrier, tracking_number, expected_card_count, declared_value_per_card, site_id or notes");
    Object.assign(s, changes, { updated_at: c.services.clock.nowIso() });
    logActivity(c.services, tenant(c), keyOf(c).key, "inbound.updated", `Updated inbound shipment ${s.inbound_shipment_id}`, { inbound_shipment_id: s.inbound_shipment_id });
    return ok(wire(s));
  }),

  write("POST", "/inbound-shipments/:inbound_shipment_id/cancel", WRITE, (c) => {
    const s = shipmentOf(c);
    requireStatus(s, ["ANNOUNCED"], "be cancelled");
    const iso = c.services.clock.nowIso();
    Object.assign(s, { status: "CANCELLED", cancelled_at: iso, updated_at: iso } satisfies Partial<InboundShipment>);
    logActivity(c.services, tenant(c), keyOf(c).key, "inbound.cancelled", `Cancelled inbound shipment ${s.inbound_shipment_id}`, { inbound_shipment_id: s.inbound_shipment_id });
    return ok(wire(s));
  }),

  write("POST", "/inbound-shipments/:inbound_shipment_id/attachments", WRITE, async (c) => {
    const b = await c.object();
    return idempotentCreate(c, "inbound-attachment", b, () => {
      const s = shipmentOf(c);
      requireStatus(s, ["ANNOUNCED", "RECEIVED"], "take attachments");
      const filename = reqStr(b, "filename", "invalid_attachment", 255);
      const contentType = reqStr(b, "content_type", "invalid_attachment", 100);
      if (!ATTACHMENT_TYPES.includes(contentType)) throw badRequest("invalid_attachment", `content_type must be one of ${ATTACHMENT_TYPES.join(", ")}`);
      const size = b.size_bytes;
      if (size !== undefined && size !== null && (typeof size !== "number" || !Number.isInteger(size) || size < 0 || size > 25 * 1024 * 1024))
        throw badRequest("invalid_attachment", "size_bytes must be an integer up to 25 MB");
      const a: Attachment = {
        attachment_id: c.services.store.nextId("warehouse.attachment", 1),
        filename,
        content_type: contentType,
        size_bytes: typeof size === "number" ? size : null,
        created_at: c.services.clock.nowIso(),
      };
      s.attachments.push(a);
      s.updated_at = a.created_at;
      return created({ inbound_shipment_id: s.inbound_shipment_id, ...a });
    }, { inbound_shipment_id: c.params.inbound_shipment_id });
  }),

  write("DELETE", "/inbound-shipments/:inbound_shipment_id/attachments/:attachment_id", WRITE, (c) => {
    const s = shipmentOf(c);
    requireStatus(s, ["ANNOUNCED", "RECEIVED"], "change attachments");
    const id = intParam(c, "attachment_id", "attachment");
    const i = s.attachments.findIndex((a) => a.attachment_id === id);
    if (i < 0) throw notFound(`No attachment ${id} on inbound shipment ${s.inbound_shipment_id}`);
    s.attachments.splice(i, 1);
    s.updated_at = c.services.clock.nowIso();
    return ok({ inbound_shipment_id: s.inbound_shipment_id, attachment_id: id, deleted: true });
  }),
];
