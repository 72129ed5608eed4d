import { WEBHOOKS } from "../../../contract/index.ts";
import { created, ok, serve, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { paginate } from "../../pipeline/pagination.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { webhooksSlice } from "./model.ts";
import { find, ownedBy, register, remove, update } from "./registry.ts";
import { deliveryWire, registrationWire, webhookWire } from "./format.ts";
import { dispatcherFor } from "./dispatcher.ts";

// /api/v1/webhooks (contract/webhooks.ts: scope webhooks:manage). Partner and
// tenant keys both manage webhooks: a partner receives commerce events, a
// tenant the warehouse ones. Not metered.

const keyOf = (c: HandlerContext): KeyRecord => c.key as KeyRecord;
const gate = (method: RouteSpec["method"]) => (method === "GET" ? "partner_read" : "partner_write");

const change = (op: typeof WEBHOOKS.update | typeof WEBHOOKS.replace) =>
  serve(op, {
    gate: gate(op.method),
    handle: (c) => ok({ webhook: webhookWire(update(c.services, keyOf(c), c.input.params.id, c.input.body)) }),
  });

export const webhookRoutes: RouteSpec[] = [
  serve(WEBHOOKS.register, {
    gate: gate("POST"),
    handle: (c) => created(registrationWire(register(c.services, keyOf(c), c.input.body))),
  }),

  serve(WEBHOOKS.list, {
    gate: gate("GET"),
    handle: (c) => ok({ webhooks: ownedBy(c.services, keyOf(c)).map(webhookWire) }),
  }),

  serve(WEBHOOKS.deliveries, {
    gate: gate("GET"),
    handle: (c) => {
      const key = keyOf(c).key;
      // Newest first across every webhook the key registered.
      const rows = Object.values(webhooksSlice(c.services.store).deliveries)
        .filter((d) => d.owner_key === key)
        .reverse();
      const { items, pagination } = paginate(rows, c.input.query);
      return ok({ deliveries: items.map(deliveryWire) }, { pagination });
    },
  }),

  serve(WEBHOOKS.get, {
    gate: gate("GET"),
    handle: (c) => ok({ webhook: webhookWire(find(c.services, keyOf(c), c.input.params.id)) }),
  }),

  change(WEBHOOKS.update),
  change(WEBHOOKS.replace),

  serve(WEBHOOKS.delete, {
    gate: gate("DELETE"),
    handle: (c) => {
      const { id, dropped } = remove(c.services, keyOf(c), c.input.params.id);
      dispatcherFor(c.services).forget(dropped);
      return ok({ id, deleted: true });
    },
  }),
];
