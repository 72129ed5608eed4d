import { defineControl, type ControlSpec } from "../../control/route.ts";
import { listLimit, newestFirst } from "../../control/schemas.ts";
import { ok } from "../../pipeline/route.ts";
import { z } from "../../pipeline/schema.ts";
import { InboundShipment, Order, WarehouseException, Withdrawal } from "../../../contract/index.ts";
import { inboundWire, orderWire, withdrawalWire } from "./format.ts";
import { warehouse } from "./state.ts";

// The operator's overview of the warehouse: every tenant's orders, inbound
// shipments, withdrawals and exceptions (newest first, wire shapes) and its card
// count per status, as the dashboard's warehouse view lists them beside the
// operator actions. Read-only.

export const overviewControl: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/warehouse",
    describe:
      "Operator overview: every tenant's newest orders, inbound shipments, withdrawals and exceptions, and its cards per status (?limit= per list, default 50)",
    schema: {
      query: z.object({ limit: listLimit() }),
      responses: {
        200: {
          description: "Tenants with their records, newest first",
          data: z.object({
            tenants: z.array(
              z.object({
                account_id: z.string(),
                cards: z.record(z.string(), z.number().int()),
                orders: z.array(Order),
                inbound_shipments: z.array(InboundShipment),
                withdrawals: z.array(Withdrawal),
                exceptions: z.array(WarehouseException),
              }),
            ),
          }),
        },
        400: { description: "limit is not an integer from 1 to 1000", codes: ["invalid_value"] },
      },
    },
    handle: (c) => {
      const limit = c.input.query.limit;
      const tenants = Object.values(warehouse(c.services).tenants).map((t) => {
        const cards: Record<string, number> = {};
        for (const card of Object.values(t.cards)) cards[card.status] = (cards[card.status] ?? 0) + 1;
        return {
          account_id: t.account_id,
          cards,
          orders: newestFirst(t.orders, (o) => o.order_id, limit).map(orderWire),
          inbound_shipments: newestFirst(t.inbound, (s) => s.inbound_shipment_id, limit).map(inboundWire),
          withdrawals: newestFirst(t.withdrawals, (w) => w.withdrawal_id, limit).map(withdrawalWire),
          exceptions: newestFirst(t.exceptions, (e) => e.exception_id, limit).map((e) => structuredClone(e)),
        };
      });
      return ok({ tenants });
    },
  }),
];
