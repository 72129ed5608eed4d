import type { AccessRule } from "../../pipeline/auth.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { paginate, parseOffsetPage } from "../../pipeline/pagination.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { webhooksSlice } from "./model.ts";
import { find, ownedBy, register, remove, update } from "./registry.ts";
import { deliveryWire, registrationWire, webhookWire } from "./format.ts";
import { dispatcherFor } from "./dispatcher.ts";

// /api/v1/webhooks (scope webhooks:manage). Partner and tenant keys both
// manage webhooks: a partner receives commerce events, a tenant the warehouse
// ones. `/webhooks/deliveries` is registered before `/webhooks/:id` (the SDK
// relies on that order). Not metered.

const ACCESS: AccessRule = { kinds: ["partner", "tenant"], scopes: ["webhooks:manage"] };

const keyOf = (c: HandlerContext): KeyRecord => c.key as KeyRecord;

const route = (method: RouteSpec["method"], path: string, handle: RouteSpec["handle"]): RouteSpec => ({
  method,
  path,
  access: ACCESS,
  envelope: "partner",
  gate: method === "GET" ? "partner_read" : "partner_write",
  handle,
});

const change = async (c: HandlerContext) => ok({ webhook: webhookWire(update(c.services, keyOf(c), c.params.id, await c.json())) });

export const webhookRoutes: RouteSpec[] = [
  route("POST", "/webhooks", async (c) => created(registrationWire(register(c.services, keyOf(c), await c.json())))),

  route("GET", "/webhooks", (c) => ok({ webhooks: ownedBy(c.services, keyOf(c)).map(webhookWire) })),

  route("GET", "/webhooks/deliveries", (c) => {
    const page = parseOffsetPage(c.query);
    const key = keyOf(c).key;
    // Newest first across every webhook the key registered.
    const rows = Object.values(webhooksSlice(c.services.store).deliveries)
      .filter((d) => d.owner_key === key)
      .reverse();
    const { items, pagination } = paginate(rows, page);
    return ok({ deliveries: items.map(deliveryWire) }, { pagination });
  }),

  route("GET", "/webhooks/:id", (c) => ok({ webhook: webhookWire(find(c.services, keyOf(c), c.params.id)) })),

  route("PATCH", "/webhooks/:id", change),
  route("PUT", "/webhooks/:id", change),

  route("DELETE", "/webhooks/:id", (c) => {
    const { id, dropped } = remove(c.services, keyOf(c), c.params.id);
    dispatcherFor(c.services).forget(dropped);
    return ok({ id, deleted: true });
  }),
];
