import type { Services } from "../pipeline/services.ts";
import { badRequest, notFound } from "../pipeline/errors.ts";
import { own } from "../state/own.ts";

// The partner account an operator action is for: named by one of its keys (`key`) or by `account_id`.

export function accountOf(services: Services, given: { key?: string; account_id?: string }): string {
  if (given.key) {
    const rec = own(services.store.state.keys, given.key);
    if (!rec) throw notFound("No API key with that value");
    return rec.account_id;
  }
  if (!given.account_id) throw badRequest("invalid_value", "account_id (or key) is required");
  return given.account_id;
}
