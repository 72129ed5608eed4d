import { MYSTERY_WALLET, WAREHOUSE_INBOUND, WEBHOOKS } from "../../contract/index.ts";
import { usdc } from "../../contract/money.ts";
import { toCents } from "../areas/warehouse/money.ts";
import { usdcMicros } from "./checks.ts";
import { pathText, WorldError, type WorldPath } from "./problems.ts";
import type { World, WorldCard, WorldKey, WorldWebhook } from "./schema.ts";

// Lays a checked world over a fresh emulator through the very requests a developer would send: the control
// plane for operator actions (keys, KYC, custodial funding, receiving and pricing cards, restock, faults) and
// the partner API, with the world's own keys, for what a partner does (wallets, webhooks, inbound shipments).
// So the world holds exactly what those operations make, and nothing is written to the state directly.

/** Sends one request to this emulator, in-process. */
export type Dispatch = (req: Request) => Promise<Response>;

export interface NamedKey {
  name: string;
  key: string;
  kind: "partner" | "tenant";
}

const API = "/api/v1";
const DEFAULT_DECLARED = "10.00";

export async function applyWorld(file: string, world: World, dispatch: Dispatch, origin: string): Promise<NamedKey[]> {
  const named: NamedKey[] = [];
  const call = async (
    path: WorldPath,
    method: string,
    url: string,
    body: unknown,
    key?: string,
  ): Promise<Record<string, unknown>> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (key) headers["x-api-key"] = key;
    const res = await dispatch(
      new Request(origin + url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    );
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) {
      const why = (parsed.message ?? parsed.error ?? text) as string;
      throw new WorldError(file, [`${pathText(path)}: ${method} ${url} answered ${res.status}: ${why}`]);
    }
    return (parsed.data ?? parsed) as Record<string, unknown>;
  };

  const makeKeys = async (
    base: WorldPath,
    kind: NamedKey["kind"],
    accountId: string,
    keys: readonly WorldKey[],
    model?: string,
  ) => {
    const made = new Map<string, string>();
    for (const [i, k] of keys.entries()) {
      const answer = await call([...base, "keys", i], "POST", "/_emulator/keys", {
        kind,
        account_id: accountId,
        label: k.label ?? `${k.name} (world: ${accountId})`,
        ...(k.scopes ? { scopes: k.scopes } : {}),
        ...(model ? { billing_model: model } : {}),
        ...(k.credits !== undefined ? { balance: k.credits } : {}),
        ...(k.rate_limit_per_min !== undefined ? { rate_limit_per_min: k.rate_limit_per_min } : {}),
        ...(k.partner_rate_limit_per_min !== undefined
          ? { partner_rate_limit_per_min: k.partner_rate_limit_per_min }
          : {}),
        ...(k.fresh_per_min !== undefined ? { fresh_per_min: k.fresh_per_min } : {}),
      });
      const value = String(answer.key);
      made.set(k.name, value);
      named.push({ name: k.name, key: value, kind });
    }
    return made;
  };

  /** The first key of `keys` holding `scope` (absent scopes: the kind's defaults, which `byDefault` says). */
  const keyWith = (keys: readonly WorldKey[], made: Map<string, string>, scope: string, byDefault: boolean) => {
    const k = keys.find((x) => (x.scopes ? x.scopes.includes(scope) : byDefault));
    return k ? made.get(k.name) : undefined;
  };

  const addWebhooks = async (
    base: WorldPath,
    keys: readonly WorldKey[],
    made: Map<string, string>,
    hooks: readonly WorldWebhook[] | undefined,
  ) => {
    for (const [i, h] of (hooks ?? []).entries()) {
      const p = [...base, "webhooks", i];
      const key = h.key !== undefined ? made.get(h.key) : keyWith(keys, made, "webhooks:manage", true);
      const hook = await call(
        p,
        WEBHOOKS.register.method,
        API + WEBHOOKS.register.path,
        {
          url: h.url,
          ...(h.event_types ? { event_types: h.event_types } : {}),
        },
        key,
      );
      if (h.chaos) await call([...p, "chaos"], "POST", `/_emulator/webhooks/${String(hook.id)}/chaos`, h.chaos);
    }
  };

  for (const [i, a] of (world.accounts ?? []).entries()) {
    const base = ["accounts", i];
    const made = await makeKeys(base, "partner", a.id, a.keys, a.billing_model);
    if (a.kyc_required !== undefined)
      await call([...base, "kyc_required"], "POST", "/_emulator/mystery/kyc", {
        account_id: a.id,
        required: a.kyc_required,
      });
    for (const [field, op, scope, byDefault] of [
      ["pool_wallet", MYSTERY_WALLET.setPoolWallet, "pool:manage", true],
      ["payout_wallet", MYSTERY_WALLET.setPayoutWallet, "payout:manage", false],
    ] as const) {
      const address = a[field];
      if (address !== undefined)
        await call(
          [...base, field],
          op.method,
          API + op.path,
          { wallet_address: address },
          keyWith(a.keys, made, scope, byDefault),
        );
    }
    await addWebhooks(base, a.keys, made, a.webhooks);
    for (const [j, u] of (a.custodial_users ?? []).entries())
      await call([...base, "custodial_users", j], "POST", "/_emulator/mystery/custodial/fund", {
        account_id: a.id,
        external_user_id: u.external_user_id,
        usdc: usdc(usdcMicros(u.usdc) as bigint),
      });
  }

  for (const [i, t] of (world.tenants ?? []).entries()) {
    const base = ["tenants", i];
    const made = await makeKeys(base, "tenant", t.id, t.keys);
    await addWebhooks(base, t.keys, made, t.webhooks);
    if (t.cards?.length)
      await receiveCards(base, t.cards, keyWith(t.keys, made, "write:inbound_shipment", true)!, call);
  }

  if (world.instant?.packet_types.length) {
    const now = await call(["instant"], "GET", "/_emulator/instant", undefined);
    const onChain = now.packet_types as { packet_type_id: number; available_packs: number }[];
    for (const [i, t] of world.instant.packet_types.entries()) {
      const p = ["instant", "packet_types", i];
      if (t.price_usdc !== undefined)
        await call([...p, "price_usdc"], "POST", "/_emulator/instant/price", {
          packet_type_id: t.packet_type_id,
          usdc: usdc(usdcMicros(t.price_usdc) as bigint),
        });
      const have = onChain.find((x) => x.packet_type_id === t.packet_type_id)?.available_packs ?? 0;
      if (t.stock !== undefined && t.stock > have)
        await call([...p, "stock"], "POST", "/_emulator/instant/restock", {
          packet_type_id: t.packet_type_id,
          count: t.stock - have,
        });
    }
  }

  for (const [i, f] of (world.faults ?? []).entries()) await call(["faults", i], "POST", "/_emulator/faults", f);
  // Steered reveals, queued like the control plane's (a pool that cannot yield one is the world's problem, by path).
  for (const [i, r] of (world.reveals ?? []).entries())
    await call(["reveals", i], "POST", `/_emulator/${r.area ?? "mystery"}/reveals`, {
      tier_id: r.tier_id,
      account_id: r.account,
      external_user_id: r.external_user_id,
      items: r.items,
      band: r.band,
    });
  return named;
}

type Call = (
  path: WorldPath,
  method: string,
  url: string,
  body: unknown,
  key?: string,
) => Promise<Record<string, unknown>>;

/**
 * A tenant's cards: announced by the tenant (one inbound shipment per declared value), received by the
 * warehouse (pending identity), then published (unpriced) and priced as each card's state asks.
 */
async function receiveCards(base: WorldPath, cards: readonly WorldCard[], key: string, call: Call) {
  const byValue = new Map<string, number[]>();
  cards.forEach((c, j) => {
    const v = c.declared_value ?? DEFAULT_DECLARED;
    byValue.set(v, [...(byValue.get(v) ?? []), j]);
  });
  for (const [value, indexes] of byValue) {
    const first = [...base, "cards", indexes[0]!];
    const shipment = await call(
      first,
      WAREHOUSE_INBOUND.announce.method,
      API + WAREHOUSE_INBOUND.announce.path,
      {
        expected_card_count: indexes.length,
        declared_value_per_card: toCents(value),
      },
      key,
    );
    const id = String(shipment.inbound_shipment_id);
    const got = await call(first, "POST", `/_emulator/warehouse/inbound-shipments/${id}/receive`, {
      count: indexes.length,
    });
    const received = got.cards as { unique_id: string }[];
    for (const [n, j] of indexes.entries()) {
      const c = cards[j]!;
      const p = [...base, "cards", j];
      const uid = encodeURIComponent(received[n]!.unique_id);
      if (c.state === "pending") continue;
      await call(p, "POST", `/_emulator/warehouse/cards/${uid}/confirm-identity`, { card_id: c.card_id });
      if (c.state === "priced")
        await call(p, "POST", `/_emulator/warehouse/cards/${uid}/price`, { market_price: c.market_price });
    }
  }
}
