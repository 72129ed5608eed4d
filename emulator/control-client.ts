import { CONTROL_TABLE, type paths } from "./control/client.generated.ts";

// The typed control client: every control route that answers JSON as a method grouped by area
// (`control.clock.advance({ ms })`), its input and answer typed from the declaration that serves the route
// (through the control plane's OpenAPI document: scripts/control-client.mts writes the table and the
// types, test/control-client.test.ts keeps them equal to the routes). `emu.control` in-process;
// `connect(url)` (`cardos-emulator/control`) for an emulator in another process.

type Table = typeof CONTROL_TABLE;
type Entry = { readonly method: string; readonly path: string; readonly key: string };

/** A part of an operation's parameters (`path`, `query`), or nothing when the route has none. */
type Part<P, K extends string> = P extends { [k in K]?: infer X }
  ? [NonNullable<X>] extends [never]
    ? unknown
    : NonNullable<X>
  : unknown;
type OperationOf<E extends Entry> = E["key"] extends keyof paths
  ? Lowercase<E["method"]> extends keyof paths[E["key"]]
    ? NonNullable<paths[E["key"]][Lowercase<E["method"]>]>
    : never
  : never;
type BodyOf<O> = O extends { requestBody: { content: { "application/json": infer B } } } ? B : unknown;
type ParamsOf<O> = O extends { parameters: infer P } ? Part<P, "path"> & Part<P, "query"> : unknown;

/** What a control method takes: the route's path parameters, query and body fields, in one object. */
export type ControlInput<E extends Entry> = ParamsOf<OperationOf<E>> & BodyOf<OperationOf<E>>;

/** What a control method answers: the `data` of the route's success. */
export type ControlOutput<E extends Entry> =
  OperationOf<E> extends { responses: infer R }
    ? R[keyof R & (200 | 201)] extends { content: { "application/json": { data?: infer D } } }
      ? D
      : unknown
    : unknown;

type Method<E extends Entry> =
  Record<string, never> extends ControlInput<E>
    ? (input?: ControlInput<E>) => Promise<ControlOutput<E>>
    : (input: ControlInput<E>) => Promise<ControlOutput<E>>;

/** Every control route as a method, grouped by area. */
export type ControlClient = { [G in keyof Table]: { [N in keyof Table[G]]: Method<Table[G][N] & Entry> } };

/** A control route's error answer, thrown: its status and the envelope's code, message and details. */
export class ControlError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(`${code}: ${message}`);
    this.name = "ControlError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The client over a fetch: `base` is the emulator's URL (its origin; `/_emulator` is added). */
export function controlClient(base: string, fetch: Fetch): ControlClient {
  const origin = base.replace(/\/+$/, "");
  const groups: Record<string, Record<string, (input?: Record<string, unknown>) => Promise<unknown>>> = {};
  for (const [group, methods] of Object.entries(CONTROL_TABLE as Record<string, Record<string, Entry>>))
    for (const [name, route] of Object.entries(methods))
      (groups[group] ??= {})[name] = (input = {}) => call(origin, fetch, route, input);
  return groups as unknown as ControlClient;
}

/** The control client of an emulator in another process (`npx cardos-emulator`, or one listening on a port). */
export function connect(url: string, options: { fetch?: Fetch } = {}): ControlClient {
  return controlClient(url, options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
}

async function call(origin: string, fetch: Fetch, route: Entry, input: Record<string, unknown>): Promise<unknown> {
  const rest: Record<string, unknown> = { ...input };
  const path = route.path.replace(/:(\w+)(\{[^}]*\})?/g, (_m, name: string) => {
    const value = rest[name];
    if (value === undefined) throw new TypeError(`${route.method} ${route.path} needs ${name}`);
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const url = new URL(`${origin}/_emulator${path}`);
  const init: RequestInit = { method: route.method };
  if (route.method === "GET") {
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) url.searchParams.set(k, String(v));
  } else if (Object.keys(rest).length) {
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(rest);
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let body: { success?: boolean; data?: unknown; error?: unknown; message?: unknown; details?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new ControlError(res.status, "invalid_answer", `${route.method} ${url.pathname} answered no JSON`);
  }
  if (!res.ok || body.success === false)
    throw new ControlError(
      res.status,
      String(body.error ?? "unknown_error"),
      String(body.message ?? res.statusText),
      body.details as Record<string, unknown> | undefined,
    );
  return body.data;
}
