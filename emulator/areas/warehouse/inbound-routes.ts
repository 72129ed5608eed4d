import {
  attachmentBody,
  DEFAULT_SITE,
  updateBody,
  WAREHOUSE_INBOUND,
  type AnnouncedShipment,
  type ShipmentAttachment,
  type UpdateBody,
} from "../../../contract/index.ts";
import { badRequest } from "../../pipeline/errors.ts";
import { created, ok, type RouteSpec } from "../../pipeline/route.ts";
import { checkLater } from "../../pipeline/schema.ts";
import { own } from "../../state/own.ts";
import { inboundWire } from "./format.ts";
import { idempotentCreate, intParam, keyOf, list, read, tenant, write } from "./http.ts";
import {
  addAttachment,
  announce,
  cancelShipment,
  findShipment,
  removeAttachment,
  requireShipment,
  updateShipment,
  type ShipmentFields,
} from "./inbound.ts";

// Inbound shipment routes (contract/warehouse/inbound.ts; rules in inbound.ts). Announcing is idempotent on
// `submission_key`: a replay answers 200 with `created: false` and the
// shipment as it is now. Updates and attachments check the shipment (404/409)
// before their body (400): those bodies are checked by the handler.

const shipmentId = (raw: string) => intParam(raw, "inbound_shipment_id", "inbound shipment");

/** The fields a PATCH sets (null clears an optional one; a null site_id is the default site). */
function changesOf(b: UpdateBody): Partial<ShipmentFields> {
  const changes: Partial<ShipmentFields> = {};
  if ("carrier" in b) changes.carrier = b.carrier ?? null;
  if ("tracking_number" in b) changes.tracking_number = b.tracking_number ?? null;
  if ("notes" in b) changes.notes = b.notes ?? null;
  if (b.expected_card_count !== undefined) changes.expected_card_count = b.expected_card_count;
  if (b.declared_value_per_card !== undefined) changes.declared_value_per_card = b.declared_value_per_card;
  if ("site_id" in b) changes.site_id = b.site_id ?? DEFAULT_SITE;
  if (Object.keys(changes).length === 0)
    throw badRequest(
      "invalid_update",
      "Nothing to update: send carrier, tracking_number, expected_card_count, declared_value_per_card, site_id or notes",
    );
  return changes;
}

export const inboundRoutes: RouteSpec[] = [
  read(WAREHOUSE_INBOUND.list, (c) => {
    const { status, ...page } = c.input.query;
    const rows = Object.values(tenant(c).inbound)
      .filter((s) => !status || s.status === status)
      .sort((a, b) => b.inbound_shipment_id - a.inbound_shipment_id);
    return list("inbound_shipments", rows, page, inboundWire);
  }),
  read(WAREHOUSE_INBOUND.get, (c) =>
    ok(inboundWire(findShipment(tenant(c), shipmentId(c.input.params.inbound_shipment_id)))),
  ),
  read(WAREHOUSE_INBOUND.attachments, (c) => {
    const s = findShipment(tenant(c), shipmentId(c.input.params.inbound_shipment_id));
    return ok({ inbound_shipment_id: s.inbound_shipment_id, attachments: structuredClone(s.attachments) });
  }),

  write(WAREHOUSE_INBOUND.announce, (c) => {
    const { submission_key, site_id, carrier, tracking_number, expected_card_count, declared_value_per_card, notes } =
      c.input.body;
    const fields: ShipmentFields = {
      site_id: site_id ?? DEFAULT_SITE,
      carrier: carrier ?? null,
      tracking_number: tracking_number ?? null,
      expected_card_count,
      declared_value_per_card,
      notes: notes ?? null,
    };
    const run = () => {
      const shipment: AnnouncedShipment = {
        ...inboundWire(announce(c.services, tenant(c), keyOf(c), fields, submission_key ?? null)),
        created: true,
      };
      return created(shipment);
    };
    return idempotentCreate(c, "inbound", submission_key, run, {
      field: "submission_key",
      // A replay answers 200 with created:false and the shipment as it is now.
      replay: (original) => {
        const id = (original.data as { inbound_shipment_id: number }).inbound_shipment_id;
        const current = own(tenant(c).inbound, String(id));
        return {
          status: 200,
          data: { ...(current ? inboundWire(current) : (original.data as object)), created: false },
        };
      },
    });
  }),

  write(WAREHOUSE_INBOUND.update, (c) => {
    const id = shipmentId(c.input.params.inbound_shipment_id);
    const t = tenant(c);
    // 404/409 on the shipment come before the body's 400s.
    requireShipment(t, id, "update");
    const changes = changesOf(checkLater(updateBody, c.input.body));
    return ok(inboundWire(updateShipment(c.services, t, keyOf(c), id, changes)));
  }),

  write(WAREHOUSE_INBOUND.cancel, (c) =>
    ok(inboundWire(cancelShipment(c.services, tenant(c), keyOf(c), shipmentId(c.input.params.inbound_shipment_id)))),
  ),

  write(WAREHOUSE_INBOUND.addAttachment, (c) => {
    const raw = c.input.params.inbound_shipment_id;
    // The key first (as every idempotent write), then the shipment's 404/409, then the fields' 400s.
    const sent = c.input.body as { idempotency_key?: unknown }; // the pipeline made it an object
    const key = checkLater(attachmentBody.shape.idempotency_key, sent.idempotency_key, "idempotency_key");
    return idempotentCreate(
      c,
      "inbound-attachment",
      key,
      () => {
        const id = shipmentId(raw);
        const t = tenant(c);
        requireShipment(t, id, "attach");
        const b = checkLater(attachmentBody, c.input.body);
        const { shipment, attachment } = addAttachment(c.services, t, id, {
          filename: b.filename,
          content_type: b.content_type,
          size_bytes: b.size_bytes ?? null,
        });
        const added: ShipmentAttachment = {
          inbound_shipment_id: shipment.inbound_shipment_id,
          ...structuredClone(attachment),
        };
        return created(added);
      },
      { target: { inbound_shipment_id: raw } },
    );
  }),

  write(WAREHOUSE_INBOUND.removeAttachment, (c) => {
    const id = shipmentId(c.input.params.inbound_shipment_id);
    const t = tenant(c);
    // The shipment's 404/409 come before the attachment id's 404.
    requireShipment(t, id, "attach");
    const attachmentId = intParam(c.input.params.attachment_id, "attachment_id", "attachment");
    const s = removeAttachment(c.services, t, id, attachmentId);
    return ok({ inbound_shipment_id: s.inbound_shipment_id, attachment_id: attachmentId, deleted: true });
  }),
];
