import type { Services } from "../../pipeline/services.ts";
import { ApiError, badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { SITES } from "../../../contract/index.ts";
import { own } from "../../state/own.ts";
import { rowFor } from "../../../contract/lifecycle.ts";
import { WITHDRAWAL } from "../../../contract/lifecycles/withdrawal.ts";
import { startState, transition } from "../../pipeline/lifecycle.ts";
import type { Address, CardRow, CardTransfer, TenantState, Withdrawal } from "./model.ts";
import { findCard } from "./inventory.ts";
import { type Actor, knownTenantAccounts, billableUsage, logActivity, tenantOf, touch, updateCards } from "./state.ts";
import { COUNTERS } from "../../state/ids.ts";

// Handover rules: withdrawals (the tenant takes cards out), card transfers
// (the card is handed to another tenant; the unique_id is canonical and stays the
// same) and the warehouse sites. Routes: handover-routes.ts.

export interface WithdrawalInput {
  unique_ids: string[];
  method: Withdrawal["method"];
  address: Address | null;
  notes: string | null;
}

export interface TransferInput {
  unique_id: string;
  to_account_id: string;
  note: string | null;
}

/** Cards a withdrawal or a transfer may take: in the vault and not held by an order or withdrawal. */
function requireFree(t: TenantState, ids: readonly string[]): CardRow[] {
  const cards = ids.map((id) => findCard(t, id));
  const busy = cards.filter((c) => c.status !== "AVAILABLE");
  if (busy.length)
    throw new ApiError(
      409,
      "not_eligible",
      `${busy.length} card(s) are not available (${busy.map((c) => `${c.unique_id}: ${c.status}`).join(", ")})`,
      {
        data: {
          cards: busy.map((c) => ({
            unique_id: c.unique_id,
            status: c.status,
            location: c.location,
            held_by: c.held_by,
          })),
        },
        human: "Some cards are not available",
      },
    );
  return cards;
}

export function findWithdrawal(t: TenantState, id: number): Withdrawal {
  const w = own(t.withdrawals, String(id));
  if (!w) throw notFound(`No withdrawal ${id} for this tenant`);
  return w;
}

/** The tenant asks to take cards out: they are held for the withdrawal until the operator completes it. */
export function requestWithdrawal(
  services: Services,
  t: TenantState,
  actor: Actor,
  input: WithdrawalInput,
): Withdrawal {
  const cards = requireFree(t, input.unique_ids);
  const iso = services.clock.nowIso();
  const w: Withdrawal = {
    withdrawal_id: services.store.nextId(COUNTERS.warehouseWithdrawal),
    status: startState(WITHDRAWAL, "request"),
    unique_ids: input.unique_ids,
    method: input.method,
    address: input.address,
    notes: input.notes,
    created_at: iso,
    completed_at: null,
  };
  for (const card of cards) {
    card.status = "RESERVED";
    card.held_by = `withdrawal:${w.withdrawal_id}`;
  }
  t.withdrawals[String(w.withdrawal_id)] = w;
  billableUsage(t, iso).usage.withdrawals++;
  logActivity(
    services,
    t,
    actor,
    "withdrawal.requested",
    `Requested withdrawal of ${input.unique_ids.length} card(s)`,
    { withdrawal_id: w.withdrawal_id },
  );
  return w;
}

/** Operator action: the cards leave the warehouse (picked up or shipped). */
export function completeWithdrawal(services: Services, t: TenantState, id: number): Withdrawal {
  const w = findWithdrawal(t, id);
  const refuse = (from: string) =>
    conflict("invalid_status", `Withdrawal ${id} is ${from}`, {
      data: structuredClone(w),
      human: "The withdrawal is already complete",
    });
  // Asked of the table before the cards move, so a refusal changes nothing.
  if (!rowFor(WITHDRAWAL, w.status, "complete")) throw refuse(w.status);
  const iso = services.clock.nowIso();
  updateCards(t, w.unique_ids, { status: "WITHDRAWN", location: "EXTERNAL" }, iso);
  transition(WITHDRAWAL, w, "complete", {
    now: services.clock.now(),
    patch: { completed_at: iso },
    emit: () => undefined,
    refuse,
  });
  logActivity(services, t, "operator", "withdrawal.completed", `Withdrawal ${id} completed`, { withdrawal_id: id });
  return w;
}

export function findTransfer(t: TenantState, id: number): CardTransfer {
  const tr = own(t.transfers, String(id));
  if (!tr) throw notFound(`No card transfer ${id} for this tenant`);
  return tr;
}

/** Whether `from` may transfer the card to `to` (400 to itself, 404 unknown recipient or card, 409 card not free); the card. */
export function checkTransfer(services: Services, from: TenantState, uniqueId: string, to: string): CardRow {
  if (to === from.account_id) throw badRequest("invalid_recipient", "A card cannot be transferred to its own tenant");
  if (!knownTenantAccounts(services).has(to)) throw notFound(`No tenant account ${to}`, "recipient_not_found");
  const [card] = requireFree(from, [uniqueId]);
  return card;
}

/** One card moves from the sender's vault to another tenant's; both tenants list the transfer. Returns the sender's record. */
export function transferCard(services: Services, from: TenantState, actor: Actor, input: TransferInput): CardTransfer {
  const to = input.to_account_id;
  const card = checkTransfer(services, from, input.unique_id, to);
  const dest = tenantOf(services, to);
  // unique_ids are unique across tenants, so this never happens; if a state says otherwise, refuse rather than overwrite.
  if (Object.hasOwn(dest.cards, card.unique_id))
    throw conflict(
      "not_eligible",
      `${to} already holds a card with unique_id ${card.unique_id}; the transfer would overwrite it`,
      {
        data: { unique_id: card.unique_id, to_account_id: to },
        human: "The recipient already holds a card with this unique_id",
      },
    );
  delete from.cards[card.unique_id];
  const iso = services.clock.nowIso();
  dest.cards[card.unique_id] = card;
  card.held_by = null;
  touch(dest, card, iso);
  const tr: CardTransfer = {
    transfer_id: services.store.nextId(COUNTERS.warehouseTransfer),
    unique_id: card.unique_id,
    from_account: from.account_id,
    to_account: to,
    status: "COMPLETED",
    note: input.note,
    created_at: iso,
  };
  from.transfers[String(tr.transfer_id)] = tr;
  dest.transfers[String(tr.transfer_id)] = { ...tr };
  logActivity(services, from, actor, "card.transferred_out", `Transferred ${card.unique_id} to ${to}`, {
    unique_id: card.unique_id,
    transfer_id: tr.transfer_id,
  });
  logActivity(services, dest, "operator", "card.transferred_in", `Received ${card.unique_id} from ${from.account_id}`, {
    unique_id: card.unique_id,
    transfer_id: tr.transfer_id,
  });
  return tr;
}

export type Site = (typeof SITES)[number];

export function findSite(siteId: string): Site {
  const site = SITES.find((s) => s.site_id === siteId);
  if (!site) throw notFound(`No site ${siteId}`);
  return site;
}
