import type { AccessRule } from "../../pipeline/auth.ts";
import { created, defineRoute, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { paginate } from "../../pipeline/pagination.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { webhooksSlice } from "./model.ts";
import { find, ownedBy, register, remove, update } from "./registry.ts";
import { deliveryWire, registrationWire, webhookWire } from "./format.ts";
import { dispatcherFor } from "./dispatcher.ts";
import { SCHEMAS } from "./schemas.ts";

// /api/v1/webhooks (scope webhooks:manage). Partner and tenant keys both
// manage webhooks: a partner receives commerce events, a tenant the warehouse
// ones. `/webhooks/deliveries` is registered before `/webhooks/:id` (the SDK
// relies on that order). Not metered.

const ACCESS: AccessRule = { kinds: ["partner", "tenant"], scopes: ["webhooks:manage"] };

const keyOf = (c: HandlerContext): KeyRecord => c.key as KeyRecord;

const base = (method: RouteSpec["method"], path: string) => ({
  method,
  path,
  access: ACCESS,
  envelope: "partner" as const,
  gate: method === "GET" ? "partner_read" : "partner_write",
});

const change = (method: "PATCH" | "PUT") =>
  defineRoute({
    ...base(method, "/webhooks/:id"),
    schema: SCHEMAS.update,
    handle: (c) => ok({ webhook: webhookWire(update(c.services, keyOf(c), c.input.params.id, c.input.body)) }),
  });

export const webhookRoutes: RouteSpec[] = [
  defineRoute({
    ...base("POST", "/webhooks"),
    schema: SCHEMAS.register,
    handle: (c) => created(registrationWire(register(c.services, keyOf(c), c.input.body))),
  }),

  defineRoute({ ...base("GET", "/webhooks"), schema: SCHEMAS.list, handle: (c) => ok({ webhooks: ownedBy(c.services, keyOf(c)).map(webhookWire) }) }),

  defineRoute({
    ...base("GET", "/webhooks/deliveries"),
    schema: SCHEMAS.deliveries,
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

  defineRoute({ ...base("GET", "/webhooks/:id"), schema: SCHEMAS.get, handle: (c) => ok({ webhook: webhookWire(find(c.services, keyOf(c), c.input.params.id)) }) }),

  change("PATCH"),
  change("PUT"),

  defineRoute({
    ...base("DELETE", "/webhooks/:id"),
    schema: SCHEMAS.remove,
    handle: (c) => {
      const { id, dropped } = remove(c.services, keyOf(c), c.input.params.id);
      dispatcherFor(c.services).forget(dropped);
      return ok({ id, deleted: true });
    },
  }),
];
