import type { CONTROL_TABLE, paths } from "../../control/client.generated.ts";

// The dashboard's control-plane client: every route it calls, by the typed control client's names
// (`control.mystery.get()`), in one table held to the generated one by the compiler, with inputs and
// answers typed from the routes' own declarations. Types only come from the server's side (`import type`):
// nothing of it reaches the browser.

type Table = typeof CONTROL_TABLE;
type Entry = { readonly method: string; readonly path: string };

// As in emulator/control-client.ts (the public layer, which this area-kit file may not import).
type Part<P, K extends string> = P extends { [k in K]?: infer X }
  ? [NonNullable<X>] extends [never]
    ? unknown
    : NonNullable<X>
  : unknown;
type OperationOf<E> = E extends { key: infer K extends keyof paths; method: infer M extends string }
  ? Lowercase<M> extends keyof paths[K]
    ? NonNullable<paths[K][Lowercase<M>]>
    : never
  : never;
type BodyOf<O> = O extends { requestBody: { content: { "application/json": infer B } } } ? B : unknown;
type ParamsOf<O> = O extends { parameters: infer P } ? Part<P, "path"> & Part<P, "query"> : unknown;
type InputOf<E> = ParamsOf<OperationOf<E>> & BodyOf<OperationOf<E>>;
/** What a route answers: the `data` of its success. */
export type OutputOf<E> =
  OperationOf<E> extends { responses: infer R }
    ? R[keyof R & (200 | 201)] extends { content: { "application/json": { data?: infer D } } }
      ? D
      : unknown
    : unknown;

/** The routes the dashboard calls; a path that is not the control client's fails the typecheck. */
const ROUTES = {
  health: { get: { method: "GET", path: "/health" } },
  keys: { list: { method: "GET", path: "/keys" }, add: { method: "POST", path: "/keys" } },
  credits: { add: { method: "POST", path: "/credits/:key" } },
  clock: {
    get: { method: "GET", path: "/clock" },
    setMode: { method: "POST", path: "/clock" },
    advance: { method: "POST", path: "/clock/advance" },
  },
  chain: {
    get: { method: "GET", path: "/chain" },
    balances: { method: "GET", path: "/chain/balances" },
    blocks: { method: "GET", path: "/chain/blocks" },
  },
  vrf: {
    get: { method: "GET", path: "/vrf" },
    setMode: { method: "POST", path: "/vrf" },
    fulfill: { method: "POST", path: "/vrf/fulfill" },
  },
  events: { trigger: { method: "POST", path: "/events" } },
  webhooks: {
    get: { method: "GET", path: "/webhooks" },
    outbox: { method: "GET", path: "/webhooks/outbox" },
    retry: { method: "POST", path: "/webhooks/retry" },
    resend: { method: "POST", path: "/webhooks/resend" },
    setChaos: { method: "POST", path: "/webhooks/:id/chaos" },
    clearChaos: { method: "DELETE", path: "/webhooks/:id/chaos" },
  },
  mystery: {
    get: { method: "GET", path: "/mystery" },
    fund: { method: "POST", path: "/mystery/custodial/fund" },
    warehouse: { method: "POST", path: "/mystery/warehouse" },
    workerRun: { method: "POST", path: "/mystery/worker/run" },
    events: { method: "GET", path: "/mystery/events" },
    shippingSigner: { method: "POST", path: "/mystery/shipping-signer" },
    kyc: { method: "POST", path: "/mystery/kyc" },
    relayer: { method: "POST", path: "/mystery/relayer" },
    reveals: { method: "GET", path: "/mystery/reveals" },
  },
  instant: {
    get: { method: "GET", path: "/instant" },
    purchases: { method: "GET", path: "/instant/purchases" },
    enabled: { method: "POST", path: "/instant/enabled" },
    custodial: { method: "POST", path: "/instant/custodial" },
    reveals: { method: "GET", path: "/instant/reveals" },
  },
  warehouse: {
    get: { method: "GET", path: "/warehouse" },
    exceptionsResolve: { method: "POST", path: "/warehouse/exceptions/:id/resolve" },
    billingClose: { method: "POST", path: "/warehouse/billing/close" },
    labelsFailNext: { method: "POST", path: "/warehouse/labels/fail-next" },
    ordersScanBack: { method: "POST", path: "/warehouse/orders/:order_id/scan-back" },
  },
  requests: { list: { method: "GET", path: "/requests" } },
  panels: { get: { method: "GET", path: "/panels" } },
  lifecycles: { get: { method: "GET", path: "/lifecycles" } },
} as const satisfies { [G in keyof Table]?: { [N in keyof Table[G]]?: Pick<Table[G][N] & Entry, "method" | "path"> } };

type Routes = typeof ROUTES;
type TableEntry<G, N> = G extends keyof Table ? (N extends keyof Table[G] ? Table[G][N] : never) : never;
type Call<E> =
  Record<string, never> extends InputOf<E>
    ? (input?: InputOf<E>) => Promise<OutputOf<E>>
    : (input: InputOf<E>) => Promise<OutputOf<E>>;
/** The dashboard's client: `control.<group>.<name>(input)`, as the typed control client names them. */
export type Control = { [G in keyof Routes]: { [N in keyof Routes[G]]: Call<TableEntry<G, N>> } };
/** What a route of the dashboard's client answers. */
export type Answer<G extends keyof Routes, N extends keyof Routes[G]> = OutputOf<TableEntry<G, N>>;

/**
 * A control-plane call: the envelope's data, or an Error with the envelope's message. Path parameters (`:name`)
 * come from `input`; the rest is the query of a GET or the JSON body of a write. Every write declares JSON,
 * body or not: the control plane refuses anything else (CSRF guard).
 */
export async function call(route: Entry, input: Record<string, unknown> = {}): Promise<unknown> {
  const rest: Record<string, unknown> = { ...input };
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const url = new URL(`/_emulator${path}`, location.origin);
  const init: RequestInit = { method: route.method };
  if (route.method === "GET") {
    for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
  } else {
    init.headers = { "content-type": "application/json" };
    // A write sends its fields as JSON ({} when it has none); a DELETE without fields sends no body.
    if (route.method !== "DELETE" || Object.keys(rest).length) init.body = JSON.stringify(rest);
  }
  const res = await fetch(url, init);
  const json = (await res.json()) as { success: boolean; data?: unknown; error?: string; message?: string };
  if (!json.success) throw new Error(`${json.error}: ${json.message}`);
  return json.data;
}

/** The client over ROUTES. */
export function controlClient(): Control {
  const groups: Record<string, Record<string, (input?: Record<string, unknown>) => Promise<unknown>>> = {};
  for (const [group, methods] of Object.entries(ROUTES as Record<string, Record<string, Entry>>))
    for (const [name, route] of Object.entries(methods)) (groups[group] ??= {})[name] = (input) => call(route, input);
  return groups as unknown as Control;
}
