import { DEFAULT_PACKET_TYPES } from "../../chain/instant.ts";
import type { CatalogIndex } from "../catalog-data/catalog-index.ts";
import { MAX_USDC_MICROS, parseUsdc, usdc } from "../../contract/money.ts";
import { FIXTURE_KEY_NAMES } from "../../fixtures/keys.ts";
import { allowedKeysAt, pathText, type WorldPath } from "./problems.ts";
import { worldSchema, type World, type WorldKey, type WorldWebhook } from "./schema.ts";

// Everything a world file is checked for before anything starts: its shape (schema.ts), then what a shape
// cannot say (names unique, a webhook's key able to register it, amounts exact and in range, a packet type
// the store contract holds), then, once the catalog is built, that every card it names exists.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const USD = /^\d{1,9}(\.\d{1,2})?$/;
const MAX_USDC = usdc(MAX_USDC_MICROS);

/** The world, or every problem of the document (shape first; the rest only once the shape holds). */
export function parseWorld(doc: unknown): { world: World; problems: [] } | { world: null; problems: string[] } {
  const r = worldSchema.safeParse(doc);
  if (!r.success) return { world: null, problems: r.error.issues.map(issueText) };
  const problems = semanticProblems(r.data);
  return problems.length ? { world: null, problems } : { world: r.data, problems: [] };
}

function issueText(issue: { code: string; path: PropertyKey[]; message: string; keys?: string[] }): string {
  if (issue.code === "unrecognized_keys" && issue.keys) {
    const allowed = allowedKeysAt(worldSchema, issue.path);
    return issue.keys
      .map(
        (k) =>
          `${pathText([...issue.path, k])}: unknown key${allowed.length ? ` (allowed here: ${allowed.join(", ")})` : ""}`,
      )
      .join("\n  ");
  }
  return `${pathText(issue.path)}: ${issue.message}`;
}

/** A USDC amount of the file in micros, or why it is not one. */
export function usdcMicros(v: string | number): bigint | string {
  if (typeof v === "number") {
    if (!Number.isInteger(v)) return `${v} is not exact: write USDC as a decimal string ("${v}") or as integer micros`;
    if (!Number.isSafeInteger(v) || v < 0)
      return `${v}: integer micros from 0 to ${Number.MAX_SAFE_INTEGER} (write larger amounts as a decimal string)`;
    return BigInt(v);
  }
  const micros = parseUsdc(v);
  if (micros !== null) return micros;
  if (/^\d+(\.\d{1,6})?$/.test(v)) return `${v}: more than a balance may hold (at most ${MAX_USDC} USDC)`;
  return `${JSON.stringify(v)} is not a USDC amount (a non-negative decimal with at most 6 places, e.g. "25.00")`;
}

function semanticProblems(w: World): string[] {
  const out: string[] = [];
  const at = (path: WorldPath, msg: string) => out.push(`${pathText(path)}: ${msg}`);
  const fixtureNames = new Set(FIXTURE_KEY_NAMES);
  const keyNames = new Map<string, string>();
  const accountIds = new Map<string, string>();

  const checkKeys = (base: WorldPath, keys: readonly WorldKey[]) =>
    keys.forEach((k, i) => {
      const p = [...base, "keys", i, "name"];
      if (fixtureNames.has(k.name))
        at(p, `"${k.name}" is a fixture key's name (${[...fixtureNames].join(", ")}); choose another`);
      else if (keyNames.has(k.name)) at(p, `duplicate key name "${k.name}" (first at ${keyNames.get(k.name)})`);
      else keyNames.set(k.name, pathText(p));
      const seen = new Set<string>();
      (k.scopes ?? []).forEach((s, j) => {
        if (seen.has(s)) at([...base, "keys", i, "scopes", j], `duplicate scope "${s}"`);
        seen.add(s);
      });
    });
  const hasScope = (k: WorldKey, scope: string, fallback: boolean) => (k.scopes ? k.scopes.includes(scope) : fallback);
  const checkWebhooks = (base: WorldPath, keys: readonly WorldKey[], hooks: readonly WorldWebhook[] | undefined) =>
    (hooks ?? []).forEach((h, i) => {
      const p = [...base, "webhooks", i];
      if (h.key !== undefined) {
        const k = keys.find((x) => x.name === h.key);
        if (!k) at([...p, "key"], `no key "${h.key}" in this account (have: ${keys.map((x) => x.name).join(", ")})`);
        else if (!hasScope(k, "webhooks:manage", true))
          at([...p, "key"], `key "${h.key}" lacks the webhooks:manage scope it needs to register a webhook`);
      } else if (!keys.some((k) => hasScope(k, "webhooks:manage", true)))
        at(p, "no key of this account has webhooks:manage to register it");
    });
  const checkAccountId = (p: WorldPath, id: string) => {
    if (accountIds.has(id)) at(p, `duplicate account id "${id}" (first at ${accountIds.get(id)})`);
    else accountIds.set(id, pathText(p));
  };

  w.accounts?.forEach((a, i) => {
    const base = ["accounts", i];
    checkAccountId([...base, "id"], a.id);
    checkKeys(base, a.keys);
    checkWebhooks(base, a.keys, a.webhooks);
    for (const [field, scope, byDefault] of [
      ["pool_wallet", "pool:manage", true],
      ["payout_wallet", "payout:manage", false],
    ] as const) {
      const addr = a[field];
      if (addr === undefined) continue;
      if (!ADDRESS.test(addr)) at([...base, field], `${JSON.stringify(addr)} is not a 0x-prefixed 20-byte address`);
      else if (!a.keys.some((k) => hasScope(k, scope, byDefault)))
        at([...base, field], `no key of this account has ${scope}, the scope that sets it`);
    }
    const users = new Set<string>();
    a.custodial_users?.forEach((u, j) => {
      const p = [...base, "custodial_users", j];
      if (users.has(u.external_user_id)) at([...p, "external_user_id"], `duplicate user "${u.external_user_id}"`);
      users.add(u.external_user_id);
      const micros = usdcMicros(u.usdc);
      if (typeof micros === "string") at([...p, "usdc"], micros);
    });
  });

  w.tenants?.forEach((t, i) => {
    const base = ["tenants", i];
    checkAccountId([...base, "id"], t.id);
    checkKeys(base, t.keys);
    checkWebhooks(base, t.keys, t.webhooks);
    if (t.cards?.length && !t.keys.some((k) => hasScope(k, "write:inbound_shipment", true)))
      at([...base, "cards"], "no key of this tenant has write:inbound_shipment, the scope that announces the cards");
    t.cards?.forEach((c, j) => {
      const p = [...base, "cards", j];
      if (c.state === "pending" && c.card_id !== undefined)
        at([...p, "card_id"], "a pending card has no identity yet (state unpriced or priced publishes one)");
      if (c.state !== "pending" && c.card_id === undefined) at(p, `a ${c.state} card needs card_id (a catalog card)`);
      if (c.state !== "priced" && c.market_price !== undefined)
        at([...p, "market_price"], `only a priced card has a market price (this one is ${c.state})`);
      if (c.state === "priced" && c.market_price === undefined)
        at(p, 'a priced card needs market_price (e.g. "12.34")');
      for (const f of ["market_price", "declared_value"] as const) {
        const v = c[f];
        if (v !== undefined && (!USD.test(v) || v === "0" || /^0(\.0+)?$/.test(v)))
          at([...p, f], `${JSON.stringify(v)} is not a positive USD amount with at most 2 places (e.g. "12.34")`);
      }
    });
  });

  const types = new Set<number>();
  w.instant?.packet_types.forEach((t, i) => {
    const p = ["instant", "packet_types", i];
    const known = DEFAULT_PACKET_TYPES.find((x) => x.packetTypeId === t.packet_type_id);
    if (!known)
      at(
        [...p, "packet_type_id"],
        `no packet type ${t.packet_type_id} on the store contract (one of ${DEFAULT_PACKET_TYPES.map((x) => x.packetTypeId).join(", ")})`,
      );
    else if (t.stock !== undefined && t.stock < known.stock)
      at(
        [...p, "stock"],
        `${t.stock} is below packet type ${t.packet_type_id}'s ${known.stock} bundles: the store contract only adds bundles (restock); use packet type ${DEFAULT_PACKET_TYPES.filter((x) => x.stock <= (t.stock ?? 0)).map((x) => x.packetTypeId)[0] ?? "4"} for a small stock`,
      );
    if (types.has(t.packet_type_id)) at([...p, "packet_type_id"], `packet type ${t.packet_type_id} is declared twice`);
    types.add(t.packet_type_id);
    if (t.price_usdc !== undefined) {
      const micros = usdcMicros(t.price_usdc);
      if (typeof micros === "string") at([...p, "price_usdc"], micros);
      else if (micros === 0n) at([...p, "price_usdc"], "a price must be above zero");
    }
  });

  if (w.clock?.start !== undefined && !Number.isFinite(Date.parse(w.clock.start)))
    at(["clock", "start"], `${JSON.stringify(w.clock.start)} is not an ISO-8601 time`);
  return out;
}

/** What the running emulator must have for this world: every named card in its catalog, the chain for instant packs. */
export function contextProblems(w: World, catalog: CatalogIndex, hasChain: boolean): string[] {
  const out: string[] = [];
  w.tenants?.forEach((t, i) =>
    t.cards?.forEach((c, j) => {
      if (c.card_id !== undefined && !catalog.cardAnyGame(c.card_id))
        out.push(`${pathText(["tenants", i, "cards", j, "card_id"])}: no card "${c.card_id}" in the catalog`);
    }),
  );
  if (w.instant?.packet_types.length && !hasChain)
    out.push("instant.packet_types: instant packs live on the chain; start the emulator with its chain or drop them");
  return out;
}
