import { identifier, later, MAX_IDEMPOTENCY_KEY, withCode, z } from "../zod.ts";
import { operation } from "../operation.ts";
import {
  badJson,
  cents,
  filteredList,
  given,
  idempotencyConflict,
  idempotencyKey,
  idText,
  instant,
  int,
  count,
  notFound,
  pathId,
  READ_INVENTORY,
  scoped,
  text,
} from "./common.ts";
import { INBOUND_SITES } from "./sites.ts";

// Inbound shipments and their attachments (docs/warehouse.md): ANNOUNCED →
// RECEIVED (operator) or CANCELLED. Announcing is idempotent on
// `submission_key` (a replay answers 200 with created: false). An update or
// attachment checks the shipment (404/409) before its body: those bodies are
// declared `later` and checked by the server once the shipment is found.

export const INBOUND_STATUSES = ["ANNOUNCED", "RECEIVED", "CANCELLED"] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];

/** An inbound shipment holds at most this many cards. */
export const MAX_CARDS = 5_000;
export const ATTACHMENT_TYPES = ["application/pdf", "image/jpeg", "image/png", "image/webp", "text/csv"];
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

export const InboundAttachment = z.object({
  attachment_id: int,
  filename: z.string(),
  content_type: z.string(),
  size_bytes: count.nullable(),
  created_at: instant,
});
export type InboundAttachment = z.output<typeof InboundAttachment>;

export const InboundShipment = z.object({
  inbound_shipment_id: int,
  submission_key: z.string().nullable(),
  status: z.enum(INBOUND_STATUSES),
  site_id: z.string(),
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  expected_card_count: int.positive(),
  declared_value_per_card: int
    .positive()
    .nullable()
    .describe("USD cents (null only in states saved before it was required)"),
  notes: z.string().nullable(),
  attachments: z.array(InboundAttachment),
  received_unique_ids: z.array(z.string()),
  created_at: instant,
  updated_at: instant,
  received_at: instant.nullable(),
  cancelled_at: instant.nullable(),
});
export type InboundShipment = z.output<typeof InboundShipment>;

/** The announce answer: the shipment and whether this call created it. */
export const AnnouncedShipment = InboundShipment.extend({
  created: z.boolean().describe("false on a replay of the submission_key"),
});
export type AnnouncedShipment = z.output<typeof AnnouncedShipment>;

/** An added attachment, with its shipment's id. */
export const ShipmentAttachment = InboundAttachment.extend({ inbound_shipment_id: int });
export type ShipmentAttachment = z.output<typeof ShipmentAttachment>;

const site = withCode(
  idText()
    .refine(
      (s) => INBOUND_SITES.includes(s),
      `must be a site that takes inbound shipments: ${INBOUND_SITES.join(", ")}`,
    )
    .nullish(),
  "invalid_site",
);
const carrier = withCode(text(64).nullish(), "invalid_carrier");
const trackingNumber = withCode(text(128).nullish(), "invalid_tracking_number");
const cardCount = withCode(
  z
    .int({ error: given(`an integer from 1 to ${MAX_CARDS}`) })
    .min(1, `must be an integer from 1 to ${MAX_CARDS}`)
    .max(MAX_CARDS, `must be an integer from 1 to ${MAX_CARDS}`),
  "invalid_card_count",
);
const notes = withCode(text(2000).nullish(), "invalid_notes");

const announceBody = z.object({
  submission_key: idempotencyKey(
    `Makes the announcement idempotent (at most ${MAX_IDEMPOTENCY_KEY} characters): a replay answers 200 with created: false`,
  ),
  site_id: site,
  carrier,
  tracking_number: trackingNumber,
  expected_card_count: cardCount,
  // Required: the received cards are pending identity, and pending cards carry the tenant's declared value.
  declared_value_per_card: cents(),
  notes,
});

/** PATCH: any of the announced fields; the declared value and the count cannot be cleared. */
export const updateBody = z.object({
  carrier,
  tracking_number: trackingNumber,
  notes,
  expected_card_count: cardCount.optional(),
  declared_value_per_card: cents().optional(),
  site_id: site,
});
export type UpdateBody = z.output<typeof updateBody>;

export const attachmentBody = withCode(
  z.object({
    idempotency_key: idempotencyKey(),
    filename: text(255),
    content_type: text(100).refine(
      (t) => ATTACHMENT_TYPES.includes(t),
      `must be one of ${ATTACHMENT_TYPES.join(", ")}`,
    ),
    size_bytes: int.min(0).max(MAX_ATTACHMENT_BYTES, "must be an integer up to 25 MB").nullish(),
  }),
  "invalid_attachment",
);

const WRITE = scoped("write:inbound_shipment");
const shipmentId = pathId("inbound_shipment_id", "inbound shipment");

export const WAREHOUSE_INBOUND = {
  list: operation({
    id: "warehouse.inboundShipments.list",
    method: "GET",
    path: "/inbound-shipments",
    summary: "The tenant's inbound shipments, newest first",
    ...READ_INVENTORY,
    schema: filteredList("inbound_shipments", InboundShipment, INBOUND_STATUSES, "Inbound shipments, newest first"),
  }),
  get: operation({
    id: "warehouse.inboundShipments.get",
    method: "GET",
    path: "/inbound-shipments/:inbound_shipment_id",
    summary: "One inbound shipment",
    ...READ_INVENTORY,
    schema: {
      params: shipmentId,
      responses: { 200: { description: "The shipment", data: InboundShipment }, 404: notFound("inbound shipment") },
    },
  }),
  attachments: operation({
    id: "warehouse.inboundShipments.attachments.list",
    method: "GET",
    path: "/inbound-shipments/:inbound_shipment_id/attachments",
    summary: "An inbound shipment's attachments",
    ...READ_INVENTORY,
    schema: {
      params: shipmentId,
      responses: {
        200: {
          description: "The shipment's attachments",
          data: z.object({ inbound_shipment_id: int, attachments: z.array(InboundAttachment) }),
        },
        404: notFound("inbound shipment"),
      },
    },
  }),
  announce: operation({
    id: "warehouse.inboundShipments.create",
    method: "POST",
    path: "/inbound-shipments",
    summary: "Announce a shipment of cards to the vault (idempotent on submission_key)",
    ...WRITE,
    schema: {
      body: announceBody,
      responses: {
        201: { description: "ANNOUNCED, created: true", data: AnnouncedShipment },
        200: {
          description: "A replay of the submission_key: the shipment as it is now, created: false",
          data: AnnouncedShipment,
        },
        400: {
          description: "A field is invalid",
          codes: [
            ...badJson,
            "invalid_idempotency_key",
            "invalid_site",
            "identifier_too_long",
            "invalid_carrier",
            "invalid_tracking_number",
            "invalid_card_count",
            "invalid_amount",
            "invalid_notes",
          ],
        },
        409: { description: "The key was used for a different request", codes: [idempotencyConflict] },
      },
    },
  }),
  update: operation({
    id: "warehouse.inboundShipments.update",
    method: "PATCH",
    path: "/inbound-shipments/:inbound_shipment_id",
    summary: "Change an announced shipment",
    ...WRITE,
    schema: {
      params: shipmentId,
      // The shipment's 404/409 come before the body's 400s.
      body: later(updateBody),
      responses: {
        200: { description: "The updated shipment", data: InboundShipment },
        400: {
          description: "A field is invalid, or nothing to update",
          codes: [
            ...badJson,
            "invalid_carrier",
            "invalid_tracking_number",
            "invalid_notes",
            "invalid_card_count",
            "invalid_amount",
            "invalid_site",
            "identifier_too_long",
            "invalid_update",
          ],
        },
        404: notFound("inbound shipment"),
        409: { description: "Not ANNOUNCED (data: the shipment)", codes: ["invalid_status"] },
      },
    },
  }),
  cancel: operation({
    id: "warehouse.inboundShipments.cancel",
    method: "POST",
    path: "/inbound-shipments/:inbound_shipment_id/cancel",
    summary: "Cancel an announced shipment",
    ...WRITE,
    schema: {
      params: shipmentId,
      responses: {
        200: { description: "CANCELLED", data: InboundShipment },
        404: notFound("inbound shipment"),
        409: { description: "Not ANNOUNCED (data: the shipment)", codes: ["invalid_status"] },
      },
    },
  }),
  addAttachment: operation({
    id: "warehouse.inboundShipments.attachments.create",
    method: "POST",
    path: "/inbound-shipments/:inbound_shipment_id/attachments",
    summary: "Attach a document (packing list, photo, CSV) to a shipment",
    ...WRITE,
    idempotencyKey: "optional",
    schema: {
      params: shipmentId,
      // The key is checked first, then the shipment's 404/409, then the other fields.
      body: later(attachmentBody),
      responses: {
        201: { description: "The attachment (a replay answers the original)", data: ShipmentAttachment },
        400: {
          description: "The key, then the fields",
          codes: [...badJson, "invalid_idempotency_key", "invalid_attachment"],
        },
        404: notFound("inbound shipment"),
        409: {
          description: "Cancelled shipment (data: the shipment), or the key reused",
          codes: ["invalid_status", idempotencyConflict],
        },
      },
    },
  }),
  removeAttachment: operation({
    id: "warehouse.inboundShipments.attachments.delete",
    method: "DELETE",
    path: "/inbound-shipments/:inbound_shipment_id/attachments/:attachment_id",
    summary: "Remove an attachment from a shipment",
    ...WRITE,
    schema: {
      params: shipmentId.extend({ attachment_id: identifier().describe("The attachment's id") }),
      responses: {
        200: {
          description: "Removed",
          data: z.object({ inbound_shipment_id: int, attachment_id: int, deleted: z.literal(true) }),
        },
        404: { description: "No such shipment, or no such attachment on it", codes: ["not_found"] },
        409: { description: "Cancelled shipment (data: the shipment)", codes: ["invalid_status"] },
      },
    },
  }),
};
