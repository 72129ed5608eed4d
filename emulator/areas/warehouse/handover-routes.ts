import {
  SITES,
  transferNote,
  WAREHOUSE_SITES,
  WAREHOUSE_TRANSFERS,
  WAREHOUSE_WITHDRAWALS,
  type CardTransfer as TransferWire,
  type WarehouseSite,
} from "../../../contract/index.ts";
import { created, ok, type RouteSpec } from "../../pipeline/route.ts";
import { checkLater } from "../../pipeline/schema.ts";
import { idempotentCreate, intParam, keyOf, list, read, tenant, write } from "./http.ts";
import { parseAddress } from "./shipping.ts";
import { checkTransfer, findSite, findTransfer, findWithdrawal, requestWithdrawal, transferCard } from "./handover.ts";
import type { CardTransfer } from "./model.ts";
import { withdrawalWire } from "./format.ts";

// Handover routes: withdrawals, card transfers and the warehouse sites
// (contract/warehouse/; rules in handover.ts).

const siteWire = (s: WarehouseSite): WarehouseSite => ({ ...s, services: [...s.services] });
const transferWire = (tr: CardTransfer): TransferWire => structuredClone(tr);

export const handoverRoutes: RouteSpec[] = [
  read(WAREHOUSE_WITHDRAWALS.list, (c) => {
    const { status, ...page } = c.input.query;
    const rows = Object.values(tenant(c).withdrawals)
      .filter((w) => !status || w.status === status)
      .sort((a, b) => b.withdrawal_id - a.withdrawal_id);
    return list("withdrawals", rows, page, withdrawalWire);
  }),
  read(WAREHOUSE_WITHDRAWALS.get, (c) =>
    ok(
      withdrawalWire(findWithdrawal(tenant(c), intParam(c.input.params.withdrawal_id, "withdrawal_id", "withdrawal"))),
    ),
  ),
  write(WAREHOUSE_WITHDRAWALS.create, (c) => {
    const b = c.input.body;
    return idempotentCreate(c, "withdrawal", b.idempotency_key, () => {
      // The shared address rule, for a shipped withdrawal only.
      const address = b.method === "ship" ? parseAddress(b.address) : null;
      const w = requestWithdrawal(c.services, tenant(c), keyOf(c), {
        unique_ids: b.unique_ids,
        method: b.method,
        address,
        notes: b.notes ?? null,
      });
      return created(withdrawalWire(w));
    });
  }),

  read(WAREHOUSE_TRANSFERS.list, (c) =>
    list(
      "transfers",
      Object.values(tenant(c).transfers).sort((a, b) => b.transfer_id - a.transfer_id),
      c.input.query,
      transferWire,
    ),
  ),
  read(WAREHOUSE_TRANSFERS.get, (c) =>
    ok(transferWire(findTransfer(tenant(c), intParam(c.input.params.transfer_id, "transfer_id", "card transfer")))),
  ),
  write(WAREHOUSE_TRANSFERS.create, (c) => {
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
        return created(
          transferWire(transferCard(c.services, from, keyOf(c), { unique_id: uniqueId, to_account_id: to, note })),
        );
      },
      { target: { unique_id: uniqueId } },
    );
  }),

  read(WAREHOUSE_SITES.list, (c) => list("sites", SITES, c.input.query, siteWire)),
  read(WAREHOUSE_SITES.get, (c) => ok(siteWire(findSite(c.input.params.site_id)))),
];
