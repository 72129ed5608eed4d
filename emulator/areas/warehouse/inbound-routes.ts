import { badRequest } from "../../pipeline/errors.ts";
import { idempotent } from "../../pipeline/idempotency.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { DEFAULT_SITE } from "../../../fixtures/warehouse/index.ts";
import { own } from "../../state/own.ts";
import { INBOUND_STATUSES } from "./model.ts";
import { inboundWire } from "./format.ts";
import { cents, idempotentCreate, intParam, keyOf, list, optId, optStr, read, reqStr, scoped, statusFilter, tenant, write } from "./http.ts";
import {
  addAttachment,
  announce,
  ATTACHMENT_TYPES,
  cancelShipment,
  findShipment,
  INBOUND_SITES,
  MAX_ATTACHMENT_BYTES,
  MAX_CARDS,
  removeAttachment,
  requireShipment,
  updateShipment,
  type ShipmentFields,
} from "./inbound.ts";

// Inbound shipment routes (rules in inbound.ts). Announcing is idempotent on
// `submission_key`: a replay answers 200 with `created: false` and the
// original shipment.

const READ = scoped("read:inventory");
const WRITE = scoped("write:inbound_shipment");

const shipmentId = (c: HandlerContext) => intParam(c, "inbound_shipment_id", "inbound shipment");

function siteOf(b: Record<string, unknown>): string | undefined {
  const site = optId(b, "site_id", "invalid_site");
  if (site !== undefined && !INBOUND_SITES.includes(site))
    throw badRequest("invalid_site", `site_id must be a site that takes inbound shipments: ${INBOUND_SITES.join(", ")}`);
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

export const inboundRoutes: RouteSpec[] = [
  read("/inbound-shipments", READ, (c) => {
    const status = statusFilter(c, INBOUND_STATUSES);
    return list(c, "inbound_shipments", Object.values(tenant(c).inbound).filter((s) => !status || s.status === status).sort((a, b) => b.inbound_shipment_id - a.inbound_shipment_id).map(inboundWire));
  }),
  read("/inbound-shipments/:inbound_shipment_id", READ, (c) => ok(inboundWire(findShipment(tenant(c), shipmentId(c))))),
  read("/inbound-shipments/:inbound_shipment_id/attachments", READ, (c) => {
    const s = findShipment(tenant(c), shipmentId(c));
    return ok({ inbound_shipment_id: s.inbound_shipment_id, attachments: structuredClone(s.attachments) });
  }),

  write("POST", "/inbound-shipments", WRITE, async (c) => {
    const b = await c.object();
    const run = () => {
      // Validate everything before taking an id: a rejected call leaves no trace.
      const fields: ShipmentFields = {
        site_id: siteOf(b) ?? DEFAULT_SITE,
        carrier: optStr(b, "carrier", "invalid_carrier", 64) ?? null,
        tracking_number: optStr(b, "tracking_number", "invalid_tracking_number", 128) ?? null,
        expected_card_count: cardCount(b, true) as number,
        // Required: the received cards are pending identity, and pending cards carry the tenant's declared value.
        declared_value_per_card: cents(b, "declared_value_per_card", true) as number,
        notes: optStr(b, "notes", "invalid_notes", 2000) ?? null,
      };
      const s = announce(c.services, tenant(c), keyOf(c).key, fields, typeof b.submission_key === "string" ? b.submission_key : null);
      return created({ ...inboundWire(s), created: true });
    };
    if (b.submission_key === undefined || b.submission_key === null) return run();
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
          return { status: 200, data: { ...(current ? inboundWire(current) : (original.data as object)), created: false } };
        },
      },
      run,
    );
  }),

  write("PATCH", "/inbound-shipments/:inbound_shipment_id", WRITE, async (c) => {
    const b = await c.object();
    const id = shipmentId(c);
    const t = tenant(c);
    // 404/409 on the shipment come before the body's 400s.
    requireShipment(t, id, ["ANNOUNCED"], "be updated");
    const changes: Partial<ShipmentFields> = {};
    if ("carrier" in b) changes.carrier = optStr(b, "carrier", "invalid_carrier", 64) ?? null;
    if ("tracking_number" in b) changes.tracking_number = optStr(b, "tracking_number", "invalid_tracking_number", 128) ?? null;
    if ("notes" in b) changes.notes = optStr(b, "notes", "invalid_notes", 2000) ?? null;
    if ("expected_card_count" in b) changes.expected_card_count = cardCount(b, true);
    if ("declared_value_per_card" in b) changes.declared_value_per_card = cents(b, "declared_value_per_card", true);
    if ("site_id" in b) changes.site_id = siteOf(b) ?? DEFAULT_SITE;
    if (Object.keys(changes).length === 0)
      throw badRequest("invalid_update", "Nothing to update: send carrier, tracking_number, expected_card_count, declared_value_per_card, site_id or notes");
    return ok(inboundWire(updateShipment(c.services, t, keyOf(c).key, id, changes)));
  }),

  write("POST", "/inbound-shipments/:inbound_shipment_id/cancel", WRITE, (c) => ok(inboundWire(cancelShipment(c.services, tenant(c), keyOf(c).key, shipmentId(c))))),

  write("POST", "/inbound-shipments/:inbound_shipment_id/attachments", WRITE, async (c) => {
    const b = await c.object();
    return idempotentCreate(c, "inbound-attachment", b, () => {
      const id = shipmentId(c);
      const t = tenant(c);
      // 404/409 on the shipment come before the body's 400s.
      requireShipment(t, id, ["ANNOUNCED", "RECEIVED"], "take attachments");
      const filename = reqStr(b, "filename", "invalid_attachment", 255);
      const contentType = reqStr(b, "content_type", "invalid_attachment", 100);
      if (!ATTACHMENT_TYPES.includes(contentType)) throw badRequest("invalid_attachment", `content_type must be one of ${ATTACHMENT_TYPES.join(", ")}`);
      const size = b.size_bytes;
      if (size !== undefined && size !== null && (typeof size !== "number" || !Number.isInteger(size) || size < 0 || size > MAX_ATTACHMENT_BYTES))
        throw badRequest("invalid_attachment", "size_bytes must be an integer up to 25 MB");
      const { shipment, attachment } = addAttachment(c.services, t, id, { filename, content_type: contentType, size_bytes: typeof size === "number" ? size : null });
      return created({ inbound_shipment_id: shipment.inbound_shipment_id, ...attachment });
    }, { inbound_shipment_id: c.params.inbound_shipment_id });
  }),

  write("DELETE", "/inbound-shipments/:inbound_shipment_id/attachments/:attachment_id", WRITE, (c) => {
    const id = shipmentId(c);
    const t = tenant(c);
    // The shipment's 404/409 come before the attachment id's 404.
    requireShipment(t, id, ["ANNOUNCED", "RECEIVED"], "change attachments");
    const attachmentId = intParam(c, "attachment_id", "attachment");
    const s = removeAttachment(c.services, t, id, attachmentId);
    return ok({ inbound_shipment_id: s.inbound_shipment_id, attachment_id: attachmentId, deleted: true });
  }),
];
