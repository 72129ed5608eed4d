import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineControl, type ControlSpec } from "../control/route.ts";
import { missing } from "../control/schemas.ts";
import { notFound } from "../pipeline/errors.ts";
import { ok } from "../pipeline/route.ts";
import { z } from "../pipeline/schema.ts";
import { JOURNAL_SIZE, journalOf, type JournalEntry } from "./journal.ts";
import { journalQuery } from "./journal-filter.ts";
import { eventStream } from "./event-stream.ts";
import { panelSchema, panelsOf } from "./panels.ts";
import { lifecyclesSchema, servedLifecycles } from "./lifecycles.ts";

// The dashboard at /_emulator/ui: its page and styles (static/), its script (app/: TypeScript, served
// compiled), the request journal as JSON, and a server-sent-events stream of new journal entries and clock
// moves. Every action the page takes is an existing control route.

const here = dirname(fileURLToPath(import.meta.url));
/** Beside this module, from source (emulator/ui/static) and in the package (dist/emulator/ui/static, copied by the build). */
const STATIC = join(here, "static");
/** The dashboard's script modules: dist/emulator/ui/app/*.js (compiled by the build's tsc), or emulator/ui/app/*.ts. */
const APP = join(here, "app");
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
};
const FILES: ReadonlySet<string> = new Set(["index.html", "style.css", "favicon.svg"]);
/** A module of the dashboard's script, served flat beside the page (`app.js` is the entry). */
const MODULE = /^([a-z][a-z-]*)\.js$/;

/** The page has buttons that change state: no other site may frame it (clickjacking); the legacy header for old browsers. */
const NO_FRAMING = { "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" };

const answer = (name: string, body: BodyInit) =>
  new Response(body, {
    status: 200,
    headers: { "Content-Type": TYPES[name.split(".").pop()!]!, "Cache-Control": "no-cache", ...NO_FRAMING },
  });

/** A dashboard file; the app also answers a browser's `/favicon.ico` with `favicon.svg`. */
export function file(name: string): Response {
  if (!FILES.has(name)) throw notFound(`No dashboard file ${name}`);
  return answer(name, readFileSync(join(STATIC, name)));
}

/**
 * A dashboard file or script module. A module is the build's JavaScript when this runs from dist/; running
 * from sources (tsx) it is its .ts transpiled on request by TypeScript's transpileModule (no type check:
 * `npm run typecheck` does that). TypeScript is a devDependency, present wherever the sources run: a
 * published install runs dist/, which holds the compiled modules (docs/decisions.md).
 */
async function served(name: string): Promise<Response> {
  const module = MODULE.exec(name)?.[1];
  if (!module) return file(name);
  const js = join(APP, name);
  if (existsSync(js)) return answer(name, readFileSync(js));
  const ts = join(APP, `${module}.ts`);
  if (!existsSync(ts)) throw notFound(`No dashboard file ${name}`);
  const { default: typescript } = await import("typescript");
  const { outputText } = typescript.transpileModule(readFileSync(ts, "utf8"), {
    fileName: ts,
    compilerOptions: {
      module: typescript.ModuleKind.ESNext,
      target: typescript.ScriptTarget.ES2022,
      rewriteRelativeImportExtensions: true,
    },
  });
  return answer(name, outputText);
}

const entrySchema = z.object({
  id: z.number().int(),
  request_id: z.string(),
  at: z.string(),
  method: z.string(),
  path: z.string(),
  operation: z.string().nullable(),
  route: z.string().nullable(),
  key: z.string().nullable(),
  key_name: z.string().nullable(),
  key_label: z.string().nullable(),
  status: z.number().int(),
  stub: z.string().nullable(),
  error: z.string().nullable(),
  credits_cost: z.number().int().nullable(),
  credits_remaining: z.number().int().nullable(),
  rate_limit_remaining: z.number().int().nullable(),
  latency_ms: z.number(),
  request: z.object({ headers: z.record(z.string(), z.string()), body: z.string().nullable(), truncated: z.boolean() }),
  response: z.object({
    headers: z.record(z.string(), z.string()),
    body: z.string().nullable(),
    truncated: z.boolean(),
  }),
}) satisfies z.ZodType<JournalEntry>;

export const uiControlRoutes: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/requests",
    describe:
      `The request journal: the last ${JOURNAL_SIZE} API calls, newest first, filtered by key (name, value or label), ` +
      "method, operation (id or path template), status (404 or 4xx), path substring, time (since, until), stubbed; " +
      "`count` is how many match before `limit`",
    schema: {
      query: journalQuery,
      responses: {
        200: {
          description: "Journal entries, newest first",
          data: z.object({ size: z.number().int(), count: z.number().int(), requests: z.array(entrySchema) }),
        },
        400: { description: "A bad filter", codes: ["invalid_value"] },
      },
    },
    handle: (c) => {
      const journal = journalOf(c.services);
      const { limit: _limit, ...matching } = c.input.query;
      return ok({ size: JOURNAL_SIZE, count: journal.count(matching), requests: journal.list(c.input.query) });
    },
  }),
  defineControl({
    method: "DELETE",
    path: "/requests",
    describe: "Clears the request journal (reset clears it too; restore and import keep it)",
    schema: {
      responses: {
        200: { description: "How many entries were cleared", data: z.object({ cleared: z.number().int() }) },
      },
    },
    handle: (c) => ok({ cleared: journalOf(c.services).clear() }),
  }),
  defineControl({
    method: "GET",
    path: "/ui/stream",
    describe:
      "Dashboard live updates (text/event-stream): `request` events with each new journal entry, " +
      "`clock` when virtual time moves, `panel` {id} when a report panel is published",
    schema: { responses: { 200: { description: "A server-sent-events stream" } } },
    handle: (c) => {
      const { services } = c;
      const stream = eventStream(services, (send) => {
        const offJournal = journalOf(services).subscribe((e) => send("request", e));
        const offClock = services.clock.onChange(() =>
          send("clock", { now: services.clock.nowIso(), mode: services.clock.mode }),
        );
        const offPanels = panelsOf(services).subscribe((id) => send("panel", { id }));
        send("hello", { now: services.clock.nowIso() });
        return () => {
          offJournal();
          offClock();
          offPanels();
        };
      });
      return {
        raw: new Response(stream, {
          status: 200,
          headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" },
        }),
      };
    },
  }),
  defineControl({
    method: "GET",
    path: "/panels",
    describe:
      "Report panels published by a tool composing the emulator (npx emulator shadow: the drift report), " +
      "as the dashboard's Reports tab shows them",
    schema: {
      responses: {
        200: {
          description: "Every published panel",
          data: z.object({ panels: z.array(panelSchema.extend({ updated_at: z.string() })) }),
        },
      },
    },
    handle: (c) => ok({ panels: panelsOf(c.services).list() }),
  }),
  defineControl({
    method: "GET",
    path: "/lifecycles",
    describe:
      "The lifecycle tables: per table its statuses and, per status, the triggers allowed from it, each with the " +
      "control route that fires it (null: the API's or a worker's); the dashboard's row buttons come from here",
    schema: {
      responses: { 200: { description: "Every lifecycle table", data: lifecyclesSchema } },
    },
    handle: () => ok(servedLifecycles()),
  }),
  defineControl({
    method: "GET",
    path: "/ui",
    describe: "The dashboard (requests, webhooks, clock, keys, commerce, chain) in the browser",
    schema: { responses: { 200: { description: "The dashboard's page (text/html)" } } },
    handle: () => ({ raw: file("index.html") }),
  }),
  defineControl({
    method: "GET",
    path: "/ui/:file",
    describe:
      "The dashboard's files: its script's modules (app.js, the entry, and those it imports), style.css, favicon.svg",
    schema: {
      params: z.object({ file: z.string() }),
      responses: { 200: { description: "The file" }, 404: missing("dashboard file") },
    },
    handle: async (c) => ({ raw: await served(c.input.params.file) }),
  }),
];
