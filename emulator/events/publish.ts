import type { Services } from "../pipeline/services.ts";
import type { EventType } from "./types.ts";

/**
 * Publishes a domain event for an account (a partner's or a tenant's). The
 * webhooks area delivers it to that account's webhooks. `key` makes the event
 * id (`"<type>:<key>"`), so the same occurrence is never delivered as two events.
 */
export function publishEvent(
  services: Services,
  accountId: string,
  type: EventType,
  key: string,
  data: Record<string, unknown>,
): void {
  services.bus.emit("webhook.event", { account_id: accountId, type, key, data });
}
