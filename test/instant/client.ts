import type { Emulator } from "../helpers.ts";
import { ApiFailure, TerminalStateError } from "../sdk-errors.ts";

export { ApiFailure, failure } from "../sdk-errors.ts";

// A client of /api/v1/instant written from the SDK contract (docs/reference/sdk-shapes.md
// “Transport”, “Pagination as the SDK reads it”, “Polling”, “Instant pack methods”): the
// SDK's headers, the envelope read the SDK's way (error code from
// `error`, pagination beside data), include_unavailable sent as the literal "1"
// only when true, and waitForDelivery polling with the SDK's defaults (1.5 s,
// ×1.5, at most 5 s, 180 s) — the sleeps move the emulator's virtual clock.

export interface InstantCatalogItem {
  packet_type_id: number;
  set_id: string;
  set_name: string;
  product_id: string;
  name: string;
  price: string;
  price_usdc: string;
  available_packs: number;
  tcg_type: string;
  language: string;
}
export interface InstantCall {
  to: `0x${string}`;
  data: `0x${string}`;
  description: string;
}
export interface InstantPrepareResult {
  chain_id: number;
  payment_token: `0x${string}`;
  contract: `0x${string}`;
  packet_type_id: number;
  price: string;
  price_usdc: string;
  calls: InstantCall[];
}
export interface InstantCard {
  token_id: string;
  unique_id: string | null;
  card_id: string | null;
  name: string | null;
  is_chase: boolean | null;
  value_usd: string | null;
  set_id: string | null;
}
export interface InstantPurchase {
  id: number;
  memo?: string;
  status: string;
  custody: string;
  packet_type_id: number;
  set_id: string | null;
  product_id: string | null;
  quantity: number;
  price: string;
  price_usdc: string;
  onchain_request_id: string | null;
  transaction_hash: string | null;
  purchaser_address: string | null;
  recipient_address: string | null;
  failure_reason: string | null;
  submitted_at: string | null;
  fulfilled_at: string | null;
  pack?: { unique_id: string; set_id: string; name: string; opened_at: string | null } | null;
  cards?: InstantCard[];
}
export interface Page<T> {
  items: T[];
  pagination: { limit: number; offset: number; has_more: boolean; next_offset?: number } | undefined;
}

type Query = Record<string, string | number | boolean | undefined>;

export function instantClient(emu: Emulator, apiKey: string) {
  async function call<T>(
    method: string,
    path: string,
    opts: { query?: Query; body?: Record<string, unknown> } = {},
  ): Promise<{ data: T; body: Record<string, unknown> }> {
    const url = new URL(`/api/v1/instant${path}`, emu.url);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      accept: "application/json",
      "x-api-key": apiKey,
      "user-agent": "cardos-sdk/0.1.2",
    };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!res.ok || body.success === false)
      throw new ApiFailure(
        res.status,
        typeof body.error === "string" ? body.error : "request_failed",
        body,
        res.headers,
      );
    return { data: body.data as T, body };
  }
  const page = async <T>(path: string, key: string, query: Query): Promise<Page<T>> => {
    const { data, body } = await call<Record<string, T[]>>("GET", path, { query });
    return { items: data[key] ?? [], pagination: body.pagination as Page<T>["pagination"] };
  };
  const instant = {
    catalog: (p: { include_unavailable?: boolean; limit?: number; offset?: number } = {}) =>
      page<InstantCatalogItem>("/catalog", "packs", {
        include_unavailable: p.include_unavailable ? "1" : undefined,
        limit: p.limit,
        offset: p.offset,
      }),
    prepare: async (p: { packet_type_id: number; wallet_address: string; max_price_usdc?: string }) =>
      (await call<InstantPrepareResult>("POST", "/purchase/prepare", { body: p })).data,
    submit: async (p: {
      packet_type_id: number;
      transaction_hash: string;
      request_id?: string;
      external_user_id?: string;
      wallet_address?: string;
    }) => (await call<InstantPurchase>("POST", "/purchase/submit", { body: p })).data,
    getPurchase: async (id: number | string) =>
      (await call<InstantPurchase>("GET", `/purchase/${encodeURIComponent(String(id))}`)).data,
    listPurchases: (
      p: { status?: string; external_user_id?: string; wallet_address?: string; limit?: number; offset?: number } = {},
    ) => page<InstantPurchase>("/purchases", "purchases", p),
    /** docs/reference/sdk-shapes.md “Polling”: FULFILLED done; FAILED/REFUNDED throw; the interval sleeps on the virtual clock. */
    async waitForDelivery(
      id: number,
      poll = { intervalMs: 1500, maxIntervalMs: 5000, backoffFactor: 1.5, timeoutMs: 180_000 },
    ) {
      const seen: string[] = [];
      let interval = poll.intervalMs;
      let elapsed = 0;
      for (;;) {
        const p = await instant.getPurchase(id);
        if (seen.at(-1) !== p.status) seen.push(p.status);
        if (p.status === "FULFILLED") return { purchase: p, seen };
        if (p.status === "FAILED" || p.status === "REFUNDED") throw new TerminalStateError(p.status, p);
        if (elapsed + interval > poll.timeoutMs) throw new Error(`poll timeout, last ${p.status}`);
        await emu.clock.advance(interval);
        elapsed += interval;
        interval = Math.min(poll.maxIntervalMs, interval * poll.backoffFactor);
      }
    },
  };
  return instant;
}
