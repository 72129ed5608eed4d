import { isMonth } from "../../../contract/index.ts";
import { defineSlice } from "../../state/slices.ts";
import { warehouseSchema } from "./state-schema.ts";
import type { Services } from "../../pipeline/services.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { own, setOwn } from "../../state/own.ts";
import { maskKey } from "../../ui/journal.ts";
import {
  buildTenantFixture,
  invoiceId,
  makeInvoiceCode,
  makeUniqueId,
  type CatalogCandidate,
} from "../../../fixtures/warehouse/index.ts";
import type { Activity, CardRow, TenantState, Usage, WarehouseState } from "./model.ts";
import { isoMonth, isoOf } from "../../../contract/time.ts";
import { COUNTERS, warehouseCardCounter } from "../../state/ids.ts";

// The warehouse slice of the store. A tenant's warehouse is built from the
// fixtures (seed + account id) the first time that account is touched, so any
// tenant key, including ones made through the control plane, has inventory.
// Always re-read through these helpers: reset/restore replace the whole state.

export const SLICE = "warehouse";

const WAREHOUSE_SLICE = defineSlice<WarehouseState>({
  name: SLICE,
  init: () => ({ tenants: {} }),
  schema: warehouseSchema,
});

export function warehouse(services: Services): WarehouseState {
  return services.store.slice(WAREHOUSE_SLICE);
}

export function tenantOf(services: Services, accountId: string): TenantState {
  const wh = warehouse(services);
  // Own entries only: an account named `constructor` or `__proto__` gets its own warehouse.
  return own(wh.tenants, accountId) ?? setOwn(wh.tenants, accountId, newTenant(services, accountId));
}

export const tenantForKey = (services: Services, key: KeyRecord) => tenantOf(services, key.account_id);

/** Tenant accounts that exist (fixture or control-plane tenant keys), for card transfers. */
export function knownTenantAccounts(services: Services): Set<string> {
  const out = new Set(Object.keys(warehouse(services).tenants));
  for (const k of Object.values(services.store.state.keys)) if (k.kind === "tenant") out.add(k.account_id);
  return out;
}

const candidateCache = new WeakMap<Services["catalog"], { priced: CatalogCandidate[]; unpriced: CatalogCandidate[] }>();

function candidates(services: Services) {
  let found = candidateCache.get(services.catalog);
  if (!found) {
    const priced: CatalogCandidate[] = [];
    const unpriced: CatalogCandidate[] = [];
    for (const game of ["pokemon", "onepiece"] as const)
      for (const r of services.catalog.cards(game)) {
        if (r.is_variant || r.card.language_code !== "en") continue;
        const c = { card_id: r.card.id, name: r.card.name, game, market: r.pricing?.market ?? null };
        (c.market !== null && c.market >= 1 ? priced : unpriced).push(c);
      }
    found = { priced, unpriced };
    candidateCache.set(services.catalog, found);
  }
  return found;
}

function newTenant(services: Services, accountId: string): TenantState {
  const now = services.clock.now();
  // Ids are canonical across the API: never one another tenant already holds.
  const fx = buildTenantFixture({
    seed: services.store.state.seed,
    accountId,
    ...candidates(services),
    now,
    taken: (id) => cardOwner(services, id) !== null,
    invoiceCodeTaken: (code) => invoiceCodeHeld(services, code),
  });
  return {
    account_id: accountId,
    name: fx.name,
    prefix: fx.prefix,
    invoice_code: fx.invoice_code,
    created_at: isoOf(now),
    rev: fx.cards.length,
    cards: Object.fromEntries(fx.cards.map((c) => [c.unique_id, c])),
    orders: {},
    withdrawals: {},
    transfers: {},
    inbound: {},
    declared_values: [],
    invoices: Object.fromEntries(fx.invoices.map((i) => [i.invoice_id, i])),
    reports: {},
    exceptions: {},
    service_credits: {},
    activity: [],
    issues: [],
    fail_next_labels: 0,
    usage: {},
  };
}

const invoiceCodeHeld = (services: Services, code: string) =>
  Object.values(warehouse(services).tenants).some((t) => t.invoice_code === code);

/** The id of the tenant's invoice for `month`, unique across tenants. */
export function invoiceIdOf(services: Services, t: TenantState, month: string): string {
  t.invoice_code ??= makeInvoiceCode(services.store.state.seed, t.account_id, t.prefix, (code) =>
    invoiceCodeHeld(services, code),
  );
  return invoiceId(t.invoice_code, month);
}

/** Marks a card changed: new keyset position and updated_at. */
export function touch(t: TenantState, card: CardRow, nowIso: string): void {
  card.rev = ++t.rev;
  card.updated_at = nowIso;
}

/** Moves the cards (status and/or location), each marked changed. */
export function updateCards(
  t: TenantState,
  ids: readonly string[],
  change: Partial<Pick<CardRow, "status" | "location">>,
  nowIso: string,
): void {
  for (const id of ids) {
    const card = t.cards[id];
    Object.assign(card, change);
    touch(t, card, nowIso);
  }
}

/** A new unique_id, unique across every tenant (raw cards and slabs share the namespace). */
export function newUniqueId(services: Services, t: TenantState): string {
  const n = services.store.nextId(warehouseCardCounter(t.account_id));
  return makeUniqueId(services.store.state.seed, t.account_id, t.prefix, n, (id) => cardOwner(services, id) !== null);
}

/** The account holding a unique_id anywhere (ids are canonical across the API; a transfer moves the row). */
export function cardOwner(services: Services, uniqueId: string): string | null {
  for (const t of Object.values(warehouse(services).tenants)) if (Object.hasOwn(t.cards, uniqueId)) return t.account_id;
  return null;
}

/** Who acted: the key that called (never stored or shown in full) or the warehouse's own people. */
export type Actor = KeyRecord | "operator" | "carrier";

/** How the activity log names an actor: a key by its masked prefix (`rip_v1_abcd…`) and label; keys are credentials. */
export function actorOf(actor: Actor): Pick<Activity, "actor" | "actor_label"> {
  return typeof actor === "string"
    ? { actor, actor_label: null }
    : { actor: maskKey(actor.key), actor_label: actor.label };
}

/** A stored actor as shown: states saved before keys were masked may hold a key in full. */
export const shownActor = (actor: string): string =>
  actor === "operator" || actor === "carrier" || actor.endsWith("…") ? actor : maskKey(actor);

export function logActivity(
  services: Services,
  t: TenantState,
  actor: Actor,
  kind: string,
  summary: string,
  refs: Activity["refs"] = {},
): void {
  t.activity.push({
    activity_id: services.store.nextId(COUNTERS.warehouseActivity),
    at: services.clock.nowIso(),
    kind,
    ...actorOf(actor),
    summary,
    refs,
  });
}

export const monthOf = (iso: string) => iso.slice(0, 7);

/** A billing month, YYYY-MM. */
export { isMonth };

/** A month is closed once its invoice is issued. */
export const monthClosed = (t: TenantState, month: string) => Object.values(t.invoices).some((i) => i.month === month);

const nextMonth = (month: string) => {
  const [y, m] = month.split("-").map(Number);
  return isoMonth(Date.UTC(y, m, 1));
};

/**
 * The usage that bills something happening at `iso`: its month's, or, when
 * that month is already invoiced (closing defaults to the current month), the
 * first month still open, so nothing done after a close goes unbilled.
 */
export function billableUsage(t: TenantState, iso: string): { month: string; usage: Usage } {
  let month = monthOf(iso);
  while (monthClosed(t, month)) month = nextMonth(month);
  return { month, usage: usageOf(t, month) };
}

export function usageOf(t: TenantState, month: string): Usage {
  return (
    own(t.usage, month) ??
    setOwn(t.usage, month, { labels: 0, label_amount_cents: 0, label_amounts: {}, inbound: 0, withdrawals: 0 })
  );
}
