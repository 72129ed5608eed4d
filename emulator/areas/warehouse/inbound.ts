import type { Services } from "../../pipeline/services.ts";
import { conflict, notFound } from "../../pipeline/errors.ts";
import { own } from "../../state/own.ts";
import { rowFor } from "../../../contract/lifecycle.ts";
import { INBOUND_SHIPMENT, type InboundTrigger } from "../../../contract/lifecycles/inbound-shipment.ts";
import { startState, transition } from "../../pipeline/lifecycle.ts";
import type { Attachment, CardRow, InboundShipment, TenantState } from "./model.ts";
import { inboundWire } from "./format.ts";
import { type Actor, billableUsage, logActivity, newUniqueId } from "./state.ts";
import { COUNTERS } from "../../state/ids.ts";

// Inbound shipment rules: the tenant announces a package of cards and may
// update, cancel or attach documents to it while it is ANNOUNCED; the operator
// receives it (control plane), and each card appears pending identity.
// Routes: inbound-routes.ts; what they take (counts, sites, attachment types): contract/warehouse/inbound.ts.

/** What a tenant announces (and may change while ANNOUNCED). */
export interface ShipmentFields {
  site_id: string;
  carrier: string | null;
  tracking_number: string | null;
  expected_card_count: number;
  /** USD cents. */
  declared_value_per_card: number;
  notes: string | null;
}

export interface AttachmentInput {
  filename: string;
  content_type: string;
  size_bytes: number | null;
}

export function findShipment(t: TenantState, id: number): InboundShipment {
  const s = own(t.inbound, String(id));
  if (!s) throw notFound(`No inbound shipment ${id} for this tenant`);
  return s;
}

/** What each move is called in a refusal ("cannot be cancelled"). */
const ACTION: Record<InboundTrigger, string> = {
  announce: "be announced",
  update: "be updated",
  cancel: "be cancelled",
  receive: "be received",
  attach: "change attachments",
};

/** The area's 409 for a move the table lacks: the shipment as it is, and what cannot be done. */
const refusal = (s: InboundShipment) => (from: string, trigger: string) =>
  conflict(
    "invalid_status",
    `Inbound shipment ${s.inbound_shipment_id} is ${from}; cannot ${ACTION[trigger as InboundTrigger]}`,
    {
      data: inboundWire(s),
      human: `The inbound shipment cannot ${ACTION[trigger as InboundTrigger]} in status ${from}`,
    },
  );

/** The shipment, if its table has `trigger` from its status (404 when there is none, 409 invalid_status otherwise). */
export function requireShipment(t: TenantState, id: number, trigger: InboundTrigger): InboundShipment {
  const s = findShipment(t, id);
  if (!rowFor(INBOUND_SHIPMENT, s.status, trigger)) throw refusal(s)(s.status, trigger);
  return s;
}

/** Moves the shipment by its table (contract/lifecycles/inbound-shipment.ts), writing `patch` beside the state. */
function move(services: Services, s: InboundShipment, trigger: InboundTrigger, patch: Partial<InboundShipment>): void {
  transition(INBOUND_SHIPMENT, s, trigger, {
    now: services.clock.now(),
    patch,
    emit: () => undefined,
    refuse: refusal(s),
  });
}

export function announce(
  services: Services,
  t: TenantState,
  actor: Actor,
  fields: ShipmentFields,
  submissionKey: string | null,
): InboundShipment {
  const iso = services.clock.nowIso();
  const s: InboundShipment = {
    inbound_shipment_id: services.store.nextId(COUNTERS.warehouseInbound),
    submission_key: submissionKey,
    status: startState(INBOUND_SHIPMENT, "announce"),
    ...fields,
    attachments: [],
    received_unique_ids: [],
    created_at: iso,
    updated_at: iso,
    received_at: null,
    cancelled_at: null,
  };
  t.inbound[String(s.inbound_shipment_id)] = s;
  logActivity(
    services,
    t,
    actor,
    "inbound.announced",
    `Announced inbound shipment ${s.inbound_shipment_id} (${fields.expected_card_count} card(s))`,
    { inbound_shipment_id: s.inbound_shipment_id },
  );
  return s;
}

export function updateShipment(
  services: Services,
  t: TenantState,
  actor: Actor,
  id: number,
  changes: Partial<ShipmentFields>,
): InboundShipment {
  const s = requireShipment(t, id, "update");
  move(services, s, "update", { ...changes, updated_at: services.clock.nowIso() });
  logActivity(services, t, actor, "inbound.updated", `Updated inbound shipment ${s.inbound_shipment_id}`, {
    inbound_shipment_id: s.inbound_shipment_id,
  });
  return s;
}

export function cancelShipment(services: Services, t: TenantState, actor: Actor, id: number): InboundShipment {
  const s = requireShipment(t, id, "cancel");
  const iso = services.clock.nowIso();
  move(services, s, "cancel", { cancelled_at: iso, updated_at: iso });
  logActivity(services, t, actor, "inbound.cancelled", `Cancelled inbound shipment ${s.inbound_shipment_id}`, {
    inbound_shipment_id: s.inbound_shipment_id,
  });
  return s;
}

export function addAttachment(
  services: Services,
  t: TenantState,
  id: number,
  input: AttachmentInput,
): { shipment: InboundShipment; attachment: Attachment } {
  const s = requireShipment(t, id, "attach");
  const a: Attachment = {
    attachment_id: services.store.nextId(COUNTERS.warehouseAttachment),
    filename: input.filename,
    content_type: input.content_type,
    size_bytes: input.size_bytes,
    created_at: services.clock.nowIso(),
  };
  s.attachments.push(a);
  s.updated_at = a.created_at;
  return { shipment: s, attachment: a };
}

export function removeAttachment(
  services: Services,
  t: TenantState,
  id: number,
  attachmentId: number,
): InboundShipment {
  const s = requireShipment(t, id, "attach");
  const i = s.attachments.findIndex((a) => a.attachment_id === attachmentId);
  if (i < 0) throw notFound(`No attachment ${attachmentId} on inbound shipment ${s.inbound_shipment_id}`);
  s.attachments.splice(i, 1);
  s.updated_at = services.clock.nowIso();
  return s;
}

/** Operator action: the package arrives; `count` cards (default: the announced count) appear pending identity. */
export function receive(
  services: Services,
  t: TenantState,
  id: number,
  count?: number,
): { shipment: InboundShipment; cards: CardRow[] } {
  const s = requireShipment(t, id, "receive");
  // Pending cards carry the tenant's declared value (interface combinations); only a state saved before announcing required one lacks it.
  const declared = s.declared_value_per_card;
  if (declared === null)
    throw conflict(
      "invalid_status",
      `Inbound shipment ${id} has no declared_value_per_card; the tenant must PATCH one before it is received`,
      {
        data: inboundWire(s),
        human: "The inbound shipment has no declared value per card",
      },
    );
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
  move(services, s, "receive", {
    received_at: iso,
    updated_at: iso,
    received_unique_ids: cards.map((c) => c.unique_id),
  });
  billableUsage(t, iso).usage.inbound++;
  logActivity(
    services,
    t,
    "operator",
    "inbound.received",
    `Inbound shipment ${id} received: ${cards.length} card(s) pending identity`,
    { inbound_shipment_id: id },
  );
  return { shipment: s, cards };
}
