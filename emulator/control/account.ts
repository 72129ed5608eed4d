import type { Services } from "../pipeline/services.ts";
import type { KeyRecord } from "../state/schema.ts";
import { badRequest, notFound } from "../pipeline/errors.ts";
import { own } from "../state/own.ts";
import { FIXTURE_KEYS, fixtureKeyNamed, fixtureKeyValue } from "../../fixtures/keys.ts";
import { runtimeSlot } from "../pipeline/runtime.ts";

// The keys and partner accounts operator actions name. A key is given by its value or, for the
// fixture keys, by the name the banner and `--json` show (`demo`, `revenue-share`, …) or a former name (`tier`): looked up here only.

/** The keys a world file named (name → value), set once when its world is applied (emulator/world/). */
export const WORLD_KEY_NAMES = runtimeSlot("world-key-names", () => new Map<string, string>());

/** Key value → its name (`demo`, `revenue-share`, … and the world's named keys), for this emulator's seed. */
export function fixtureNames(services: Services): Map<string, string> {
  const names = new Map(FIXTURE_KEYS.map((spec) => [fixtureKeyValue(services.store.state.seed, spec), spec.name]));
  for (const [name, value] of services.runtime.of(WORLD_KEY_NAMES)) names.set(value, name);
  return names;
}

/** The key a control action names by value or by fixture (or world) name; undefined when there is none. */
export function keyNamed(services: Services, given: string): KeyRecord | undefined {
  const { keys } = services.store.state;
  const spec = fixtureKeyNamed(given);
  const world = services.runtime.of(WORLD_KEY_NAMES).get(given);
  return (
    own(keys, given) ??
    (spec ? own(keys, fixtureKeyValue(services.store.state.seed, spec)) : undefined) ??
    (world !== undefined ? own(keys, world) : undefined)
  );
}

/** As `keyNamed`, or 404 not_found. */
export function requireKey(services: Services, given: string): KeyRecord {
  const rec = keyNamed(services, given);
  if (!rec) throw notFound("No API key with that value or fixture name");
  return rec;
}

/** The partner account an operator action is for: named by one of its keys (`key`, value or name) or by `account_id`. */
export function accountOf(services: Services, given: { key?: string; account_id?: string }): string {
  if (given.key) return requireKey(services, given.key).account_id;
  if (!given.account_id) throw badRequest("invalid_value", "account_id (or key) is required");
  return given.account_id;
}
