import { created, ok, type RouteSpec } from "../../pipeline/route.ts";
import { checkLater } from "../../pipeline/schema.ts";
import { SITES } from "../../../fixtures/warehouse/index.ts";
import { idempotentCreate, intParam, keyOf, list, read, scoped, tenant, write } from "./http.ts";
import { parseAddress } from "./shipping.ts";
import { checkTransfer, findSite, findTransfer, findWithdrawal, requestWithdrawal, transferCard, type Site } from "./custody.ts";
import { SCHEMAS, transferNote, type SiteWire, type TransferWire } from "./schemas.ts";
import type { CardTransfer } from "./model.ts";
import { withdrawalWire } from "./format.ts";

// Custody routes: withdrawals, card transfers and the warehouse sites (rules in custody.ts).

const READ = scoped("read:inventory");

const siteWire = (s: Site): SiteWire => ({ ...s, services: [...s.services] });
const transferWire = (tr: CardTransfer): TransferWire => structuredClone(tr);

export const custodyRoutes: RouteSpec[] = [
  read("/withdrawals", READ, SCHEMAS.withdrawals, (c) => {
    const { status, ...page } = c.input.query;
    const rows = Object.values(tenant(c).withdrawals).filter((w) => !status || w.status === status).sort((a, b) => b.withdrawal_id - a.withdrawal_id);
    return list("withdrawals", rows, page, withdrawalWire);
  }),
  read("/withdrawals/:withdrawal_id", READ, SCHEMAS.withdrawal, (c) => ok(withdrawalWire(findWithdrawal(tenant(c), intParam(c.input.params.withdrawal_id, "withdrawal_id", "withdrawal"))))),
  write("POST", "/withdrawals", scoped("write:withdrawal"), SCHEMAS.requestWithdrawal, (c) => {
    const b = c.input.body;
    return idempotentCreate(c, "withdrawal", b.idempotency_key, () => {
      // The shared address rule, for a shipped withdrawal only.
      const address = b.method === "ship" ? parseAddress(b.address) : null;
      const w = requestWithdrawal(c.services, tenant(c), keyOf(c), { unique_ids: b.unique_ids, method: b.method, address, notes: b.notes ?? null });
      return created(withdrawalWire(w));
    });
  }),

  read("/card-transfers", READ, SCHEMAS.transfers, (c) => list("transfers", Object.values(tenant(c).transfers).sort((a, b) => b.transfer_id - a.transfer_id), c.input.query, transferWire)),
  read("/card-transfers/:transfer_id", READ, SCHEMAS.transfer, (c) => ok(transferWire(findTransfer(tenant(c), intParam(c.input.params.transfer_id, "transfer_id", "card transfer"))))),
  write("POST", "/cards/:unique_id/transfer", scoped("write:transfer"), SCHEMAS.transferCard, (c) => {
    const b = c.input.body;
    const uniqueId = c.input.params.unique_id;
    // One key space for every card: the card is part of the request, so a key reused on another card is 409 idempotency_mismatch.
    return idempotentCreate(
      c,
      "transfer",
      b.idempotency_key,
      () => {
        const to = (b.to_account_id ?? b.to_tenant) as string;
        const from = tenant(c);
        // The recipient and the card are checked before the note, as this route always has.
        checkTransfer(c.services, from, uniqueId, to);
        const note = checkLater(transferNote, b.note, "note") ?? null;
        return created(transferWire(transferCard(c.services, from, keyOf(c), { unique_id: uniqueId, to_account_id: to, note })));
      },
      { target: { unique_id: uniqueId } },
    );
  }),

  read("/sites", READ, SCHEMAS.sites, (c) => list("sites", SITES, c.input.query, siteWire)),
  read("/sites/:site_id", READ, SCHEMAS.site, (c) => ok(siteWire(findSite(c.input.params.site_id)))),
];
