import { badRequest } from "../../pipeline/errors.ts";
import { created, ok, type RouteSpec } from "../../pipeline/route.ts";
import { SITES } from "../../../fixtures/warehouse/index.ts";
import { idempotentCreate, intParam, keyOf, list, optStr, read, reqId, scoped, statusFilter, tenant, write } from "./http.ts";
import { parseAddress, parseUniqueIds } from "./shipping.ts";
import { checkTransfer, findSite, findTransfer, findWithdrawal, requestWithdrawal, transferCard, type Site } from "./custody.ts";

// Custody routes: withdrawals, card transfers and the warehouse sites (rules in custody.ts).

const READ = scoped("read:inventory");

const siteWire = (s: Site) => ({ ...s, services: [...s.services] });

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
      const w = requestWithdrawal(c.services, tenant(c), keyOf(c).key, { unique_ids: ids, method, address, notes });
      return created(structuredClone(w));
    });
  }),

  read("/card-transfers", READ, (c) => list(c, "transfers", Object.values(tenant(c).transfers).sort((a, b) => b.transfer_id - a.transfer_id))),
  read("/card-transfers/:transfer_id", READ, (c) => ok(findTransfer(tenant(c), intParam(c, "transfer_id", "card transfer")))),
  write("POST", "/cards/:unique_id/transfer", scoped("write:transfer"), async (c) => {
    const b = await c.object();
    // One key space for every card: the card is part of the request, so a key reused on another card is 409 idempotency_mismatch.
    return idempotentCreate(c, "transfer", b, () => {
      const field = b.to_account_id === undefined && b.to_tenant !== undefined ? "to_tenant" : "to_account_id";
      if (b[field] === undefined || b[field] === null) throw badRequest("invalid_recipient", "to_account_id is required: the tenant account receiving custody");
      const to = reqId(b, field, "invalid_recipient");
      const from = tenant(c);
      // The recipient and the card are checked before the note, as this route always has.
      checkTransfer(c.services, from, c.params.unique_id, to);
      const note = optStr(b, "note", "invalid_note", 2000) ?? null;
      const tr = transferCard(c.services, from, keyOf(c).key, { unique_id: c.params.unique_id, to_account_id: to, note });
      return created(structuredClone(tr));
    }, { unique_id: c.params.unique_id });
  }),

  read("/sites", READ, (c) => list(c, "sites", SITES.map(siteWire))),
  read("/sites/:site_id", READ, (c) => ok(siteWire(findSite(c.params.site_id)))),
];
