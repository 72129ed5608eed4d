import { Hono, type Context } from "hono";
import type { Services } from "./pipeline/services.ts";
import { createPipeline } from "./pipeline/pipeline.ts";
import { ApiError, notFound, internalError } from "./pipeline/errors.ts";
import { asObject, MAX_CONTROL_BODY_BYTES, MAX_JSON_BODY_BYTES, parseJson, readText } from "./pipeline/body.ts";
import {
  errorResponse,
  jsonResponse,
  successBody,
  successText,
  textResponse,
  type HeaderBag,
} from "./pipeline/envelope.ts";
import { runtimeSlot } from "./pipeline/runtime.ts";
import { isoOf } from "../contract/time.ts";
import type { AreaRoutes } from "./openapi/document.ts";
import { ipBucket, rateLimitHeaders, surfaceOf, uncountedWindow } from "./pipeline/rate-limit.ts";
import { writeMeteringHeader } from "./pipeline/metering.ts";
import { TableRouter } from "./pipeline/router.ts";
import type { RouteSpec } from "./pipeline/route.ts";
import { ok, serve } from "./pipeline/route.ts";
import { SERVICE } from "../contract/index.ts";
import type { ControlHost, ControlSpec } from "./control/route.ts";
import { AREAS } from "./areas/index.ts";
import { coreControlRoutes } from "./control/core-routes.ts";
import { chainControlRoutes } from "./control/chain-routes.ts";
import { stubControlRoutes } from "./control/stub-routes.ts";
import { runControl } from "./control/dispatch.ts";
import { checkControlWrite } from "./control/write-guard.ts";
import { journalOf, record, requestBodyOf, type CallNote } from "./ui/journal.ts";
import { file as dashboardFile, uiControlRoutes } from "./ui/routes.ts";
import { rewriteAnswer } from "./pipeline/hooks.ts";

// Composes the pipeline, every area and the control plane into one fetch
// handler. Route match happens here, in Hono through the route table
// (pipeline/router.ts): an unknown path under /api/v1 is 404 not_found before
// any key check, and never charged.

/** Health's answer at one instant of the clock, written once: a poller on a manual clock asks many times per instant. */
const HEALTH_ANSWER = runtimeSlot("health answer", () => ({ at: Number.NaN, reply: ok(null) }));

export const healthRoute: RouteSpec = serve(SERVICE.health, {
  handle: ({ services }) => {
    const now = services.clock.now();
    const last = services.runtime.of(HEALTH_ANSWER);
    if (last.at !== now) {
      const reply = ok({ status: "ok", time: isoOf(now) });
      last.reply = Object.freeze({ ...reply, text: successText(reply) });
      last.at = now;
    }
    return last.reply;
  },
});

export const apiRoutes: RouteSpec[] = [healthRoute, ...AREAS.flatMap((a) => a.routes)];

/** The routes by area, for the OpenAPI document (health under "service"). */
export const apiAreas = (): AreaRoutes[] => [
  { name: "service", routes: [healthRoute] },
  ...AREAS.map((a) => ({ name: a.name, routes: a.routes })),
];
/** The emulator's own control routes (plugins may add theirs: createFetch's `pluginControl`). */
export const controlRoutes: ControlSpec[] = [
  ...coreControlRoutes,
  ...chainControlRoutes,
  ...stubControlRoutes,
  ...AREAS.flatMap((a) => a.control),
  ...uiControlRoutes,
];

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string }; headers?: Record<string, string | string[] | undefined> };
}

/**
 * The X-API-Key header: from node's parsed headers when served over HTTP (a Headers
 * object is then never built for a GET), else from the Request (in-process, msw).
 */
function apiKeyOf(env: unknown, req: Request): string | null {
  const node = (env as NodeBindings | undefined)?.incoming?.headers;
  if (node) {
    const v = node["x-api-key"];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }
  return req.headers.get("x-api-key");
}

function ipOf(env: unknown): string {
  return (env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress ?? "in-process";
}

/** The API routes as served: each with its rate-limit surface, worked out from its path once (a route may name its own). */
const servedRoutes: RouteSpec[] = apiRoutes.map((r) => ({ ...r, surface: r.surface ?? surfaceOf(r.path) }));

export type FetchHandler = (req: Request, env?: unknown) => Promise<Response>;

/**
 * The one fetch handler: the app, an `X-Request-Id` on every response (the SDK
 * reads it into errors), and the plugins' answer hooks (if any is rewriting) applied last.
 */
export function createFetch(
  services: Services,
  host: ControlHost,
  pluginControl: readonly ControlSpec[] = [],
): FetchHandler {
  const parts: EmulatorParts = { services, host, run: createPipeline(services) };
  // The emulator's own routes are the same app for every emulator of a process (its handlers read their
  // emulator from the request's bindings): a second emulator registers no route (issue 38 goal 2).
  const app = pluginControl.length ? createApp(pluginControl) : ownRoutesApp();
  let requestSeq = 0;
  return async (req, env) => {
    const requestId = `req_${(++requestSeq).toString(36).padStart(8, "0")}`;
    // The journal sees every API answer (a write's request body always, other bodies only while someone watches: ui/journal.ts).
    const journal = req.url.includes("/api/v1/") ? journalOf(services) : null;
    const t0 = journal ? performance.now() : 0;
    const body = journal ? requestBodyOf(req, MAX_JSON_BODY_BYTES, env === undefined) : null;
    const reqBody = body && (await body);
    // The id rides in the env (node's bindings object is per request), so every answer is built with it.
    const bindings: Bindings = env
      ? Object.assign(env as NodeBindings, { requestId, note: {}, emulator: parts })
      : { requestId, note: {}, emulator: parts };
    let res = await app.fetch(req, bindings);
    if (services.hooks.length) res = await rewriteAnswer(services, req, res);
    if (journal) {
      // The key the route read (an API route reads it once); an unknown path's is read here.
      const apiKey = bindings.note.apiKey !== undefined ? bindings.note.apiKey : apiKeyOf(env, req);
      record(services, req, reqBody, res, requestId, apiKey, performance.now() - t0, bindings.note);
    }
    return res;
  };
}

/** What a request's handler needs of the emulator answering it. */
interface EmulatorParts {
  services: Services;
  host: ControlHost;
  run: ReturnType<typeof createPipeline>;
}

interface Bindings extends NodeBindings {
  requestId: string;
  /** What the route and the pipeline tell the journal about this call. */
  note: CallNote;
  /** The emulator this request is for: the app's handlers are shared by the emulators of a process. */
  emulator: EmulatorParts;
}

const emulatorOf = (c: Context): EmulatorParts => (c.env as Bindings).emulator;

/**
 * The app of the emulator's own routes, built on the first create and shared (stateless: its handlers read the
 * emulator from the bindings, its route table compiles once; docs/decisions.md, issue 38 goals 1–2).
 */
let ownApp: Hono | null = null;
const ownRoutesApp = (): Hono => (ownApp ??= createApp());

/** The answer's header bag, starting with its `X-Request-Id`. */
const idHeaders = (c: Context): HeaderBag => ({ "X-Request-Id": (c.env as Bindings).requestId });

/** The emulator's routes and `pluginControl`'s as one app; each request names its emulator in its bindings. */
export function createApp(pluginControl: readonly ControlSpec[] = []): Hono {
  // One router: the route table, shared with the conformance suite (contract/route-table.ts).
  const app = new Hono({ strict: true, router: new TableRouter() });
  const control = [...controlRoutes, ...pluginControl];

  for (const spec of servedRoutes)
    app.on(spec.method, `/api/v1${spec.path}`, (c) => {
      const note = (c.env as Bindings).note;
      if (spec.operation) note.operation = spec.operation;
      const apiKey = (note.apiKey = apiKeyOf(c.env, c.req.raw));
      return emulatorOf(c).run({
        spec,
        note,
        req: c.req.raw,
        params: c.req.param(),
        ip: ipOf(c.env),
        requestId: (c.env as Bindings).requestId,
        apiKey,
      });
    });

  for (const spec of control)
    app.on(spec.method, `/_emulator${spec.path}`, async (c) => {
      const headers = idHeaders(c);
      try {
        checkControlWrite(c.req.raw);
        const { services, host } = emulatorOf(c);
        const reply = await runControl(spec, services, host, c.req.param(), new URL(c.req.url), () =>
          readBody(c.req.raw),
        );
        if (reply.raw) {
          reply.raw.headers.set("X-Request-Id", headers["X-Request-Id"]!);
          return reply.raw;
        }
        return jsonResponse(reply.status ?? 200, successBody(reply), headers);
      } catch (err) {
        if (err instanceof ApiError) return errorResponse(err, "partner", headers);
        console.error(`[emulator] control ${spec.method} ${spec.path} failed:`, err);
        return errorResponse(internalError(), "partner", headers);
      }
    });

  // The OpenAPI documents, generated from the route table (JSON, or the same document as YAML). The
  // writer and yaml load on the first document asked for, not with the package (issue 38 goal 1).
  const writer = () => import("./openapi/document.ts");
  for (const [name, build] of [
    ["openapi", async (server: string) => (await writer()).apiDocument(apiAreas(), server)],
    ["openapi-control", async (server: string) => (await writer()).controlDocument(control, server)],
  ] as const) {
    app.get(`/_emulator/${name}.json`, async (c) =>
      textResponse(200, JSON.stringify(await build(new URL(c.req.url).origin)), idHeaders(c)),
    );
    app.get(`/_emulator/${name}.yaml`, async (c) => {
      const headers = idHeaders(c);
      headers["Content-Type"] = "application/yaml; charset=utf-8";
      const { stringify } = await import("yaml");
      return new Response(stringify(await build(new URL(c.req.url).origin)), { status: 200, headers });
    });
  }

  // Browsers ask for it on any page of the origin (the dashboard's page links the same icon).
  app.get("/favicon.ico", () => dashboardFile("favicon.svg"));

  app.get("/_emulator", (c) =>
    jsonResponse(
      200,
      successBody(
        ok({ routes: control.map((r) => ({ method: r.method, path: `/_emulator${r.path}`, describe: r.describe })) }),
      ),
      idHeaders(c),
    ),
  );

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const where = path.startsWith("/_emulator") ? "control-plane route" : "endpoint";
    // Route match comes before rate limiting, so an unknown path is not counted; the caller
    // still sees where its window stands ("X-RateLimit-* on every response").
    const { services } = emulatorOf(c);
    const { keys } = services.store.state;
    const id = c.req.header("x-api-key")?.trim() ?? "";
    const key = Object.hasOwn(keys, id) ? keys[id] : undefined;
    const ip = { bucket: ipBucket(ipOf(c.env)), limit: services.options.ipRateLimitPerMin };
    const surface = surfaceOf(path.slice("/api/v1".length));
    const window = uncountedWindow(services.limiter, ip, key, surface, services.clock.now());
    const headers = idHeaders(c);
    if (path.startsWith("/api/")) {
      Object.assign(headers, rateLimitHeaders(window));
      writeMeteringHeader(headers, key);
    }
    return errorResponse(notFound(`No ${where} ${c.req.method} ${path}`), "partner", headers);
  });
  app.onError((err, c) => {
    console.error("[emulator] unhandled:", err);
    return errorResponse(internalError(), "partner", idHeaders(c));
  });
  return app;
}

async function readBody(req: Request): Promise<Record<string, unknown>> {
  return asObject(parseJson(await readText(req, MAX_CONTROL_BODY_BYTES)));
}
