import type { Services } from "../../pipeline/services.ts";
import { ApiError, badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { created, ok, type RouteSpec } from "../../pipeline/route.ts";
import { SITES } from "../../../fixtures/warehouse/index.ts";
import { own } from "../../state/own.ts";
import type { TenantState, Withdrawal } from "./model.ts";
import { idempotentCreate, intParam, keyOf, list, optStr, read, reqId, scoped, statusFilter, tenant, write } from "./http.ts";
import { parseAddress, parseUniqueIds } from "./shipping.ts";
import { knownTenantAccounts, logActivity, monthOf, tenantOf, touch, usageOf } from "./state.ts";
import { findCard } from "./inventory.ts";

// Custody: withdrawals (the tenant takes cards out), card transfers (custody
// moves to another tenant; the unique_id is canonical and stays the same) and
// the warehouse sites.

const READ = scoped("read:inventory");

/** Cards a withdrawal or a transfer may take: in the vault and not held by an order or withdrawal. */
function requireFree(t: TenantState, ids: readonly string[]) {
  const cards = ids.map((id) => findCard(t, id));
  const busy = cards.filter((c) => c.status !== "AVAILABLE");
  if (busy.length)
    throw new ApiError(409, "not_eligible", `${busy.length} card(s) are not available (${busy.map((c) => `${c.unique_id}: ${c.status}`).join(", ")})`, {
      data: { cards: busy.map((c) => ({ unique_id: c.unique_id, status: c.status, location: c.location, held_by: c.held_by })) },
      human: "Some cards are not available",
    });
  return cards;
}

function findWithdrawal(t: TenantState, id: number): Withdrawal {
  const w = own(t.withdrawals, String(id));
  if (!w) throw notFound(`No withdrawal ${id} for this tenant`);
  return w;
}

/** Operator action: the cards leave the warehouse (picked up or shipped). */
export function completeWithdrawal(services: Services, t: TenantState, id: number): Withdrawal {
  const w = findWithdrawal(t, id);
  if (w.status !== "REQUESTED")
    throw conflict("invalid_status", `Withdrawal ${id} is ${w.status}`, { data: structuredClone(w), human: "The withdrawal is already complete" });
  const iso = services.clock.nowIso();
  for (const uid of w.unique_ids) {
    const card = t.cards[uid];
    card.status = "WITHDRAWN";
    card.location = "EXTERNAL";
    touch(t, card, iso);
  }
  w.status = "COMPLETED";
  w.completed_at = iso;
  logActivity(services, t, "operator", "withdrawal.completed", `Withdrawal ${id} completed`, { withdrawal_id: id });
  return w;
}

export const custodyRoutes: RouteSpec[] = [
  read("/withdrawals", READ, (c) => {
    const status = statusFilter(c, ["REQUESTED", "COMPLETED"]);
    return list(c, "withdrawals", Object.values(tenant(c).withdrawals).filter((w) => !status || w.status === status).sort((a, b) => b.withdrawal_id - a.withdrawal_id));
  }),
  read("/withdrawals/:withdrawal_id", READ, (c) => ok(findWithdrawal(tenant(c), intParam(c, "withdrawal_id", "withdrawal")))),
  write("POST", "/withdrawals", scoped("write:withdrawal"), async (c) => {
    const b = await c.object();
    return idempotentCreate(c, "withdrawal", b, () => {
      const ids = parseUniqueIds(b.unique_ids);
      const method = b.method ?? "pickup";
      if (method !== "pickup" && method !== "ship") throw badRequest("invalid_method", 'method must be "pickup" or "ship"');
      const address = method === "ship" ? parseAddress(b.address) : null;
      const notes = optStr(b, "notes", "invalid_notes", 2000) ?? null;
      const t = tenant(c);
      const cards = requireFree(t, ids);
      const iso = c.services.clock.nowIso();
      const w: Withdrawal = {
        withdrawal_id: c.services.store.nextId("warehouse.withdrawal", 5001),
        status: "REQUESTED",
        unique_ids: ids,
        method,
        address,
        notes,
        created_at: iso,
        completed_at: null,
      };
      for (const card of cards) {
        card.status = "RESERVED";
        card.held_by = `withdrawal:${w.withdrawal_id}`;
      }
      t.withdrawals[String(w.withdrawal_id)] = w;
      usageOf(t, monthOf(iso)).withdrawals++;
      logActivity(c.services, t, keyOf(c).key, "withdrawal.requested", `Requested withdrawal of ${ids.length} card(s)`, { withdrawal_id: w.withdrawal_id });
      return created(structuredClone(w));
    });
  }),

  read("/card-transfers", READ, (c) => list(c, "transfers", Object.values(tenant(c).transfers).sort((a, b) => b.transfer_id - a.transfer_id))),
  read("/card-transfers/:transfer_id", READ, (c) => {
    const tr = own(tenant(c).transfers, String(intParam(c, "transfer_id", "card transfer")));
    if (!tr) throw notFound(`No card transfer ${c.params.transfer_id} for this tenant`);
    return ok(tr);
  }),
  write("POST", "/cards/:unique_id/transfer", scoped("write:transfer"), async (c) => {
    const b = await c.object();
    // One key space for every card: the card is part of the request, so a key reused on another card is 409 idempotency_mismatch.
    return idempotentCreate(c, "transfer", b, () => {
      const field = b.to_account_id === undefined && b.to_tenant !== undefined ? "to_tenant" : "to_account_id";
      if (b[field] === undefined || b[field] === null) throw badRequest("invalid_recipient", "to_account_id is required: the tenant account receiving custody");
      const to = reqId(b, field, "invalid_recipient");
      const from = tenant(c);
      if (to === from.account_id) throw badRequest("invalid_recipient", "A card cannot be transferred to its own tenant");
      if (!knownTenantAccounts(c.services).has(to)) throw notFound(`No tenant account ${to}`, "recipient_not_found");
      const [card] = requireFree(from, [c.params.unique_id]);
      const note = optStr(b, "note", "invalid_note", 2000) ?? null;
      const dest = tenantOf(c.services, to);
      // unique_ids are unique across tenants, so this never happens; if a state says otherwise, refuse rather than overwrite.
      if (Object.hasOwn(dest.cards, card.unique_id))
        throw conflict("not_eligible", `${to} already holds a card with unique_id ${card.unique_id}; the transfer would overwrite it`, {
          data: { unique_id: card.unique_id, to_account_id: to },
          human: "The recipient already holds a card with this unique_id",
        });
      delete from.cards[card.unique_id];
      const iso = c.services.clock.nowIso();
      dest.cards[card.unique_id] = card;
      card.held_by = null;
      touch(dest, card, iso);
      const tr = {
        transfer_id: c.services.store.nextId("warehouse.transfer", 7001),
        unique_id: card.unique_id,
        from_account: from.account_id,
        to_account: to,
        status: "COMPLETED" as const,
        note,
        created_at: iso,
      };
      from.transfers[String(tr.transfer_id)] = tr;
      dest.transfers[String(tr.transfer_id)] = { ...tr };
      logActivity(c.services, from, keyOf(c).key, "card.transferred_out", `Transferred ${card.unique_id} to ${to}`, { unique_id: card.unique_id, transfer_id: tr.transfer_id });
      logActivity(c.services, dest, "operator", "card.transferred_in", `Received ${card.unique_id} from ${from.account_id}`, { unique_id: card.unique_id, transfer_id: tr.transfer_id });
      return created(structuredClone(tr));
    }, { unique_id: c.params.unique_id });
  }),

  read("/sites", READ, (c) => list(c, "sites", SITES.map((s) => ({ ...s, services: [...s.services] })))),
  read("/sites/:site_id", READ, (c) => {
    const site = SITES.find((s) => s.site_id === c.params.site_id);
    if (!site) throw notFound(`No site ${c.params.site_id}`);
    return ok({ ...site, services: [...site.services] });
  }),
];
