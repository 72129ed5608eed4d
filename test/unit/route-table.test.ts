import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { apiRoutes } from "../../emulator/app.ts";
import { RouteTable, segmentsUnder } from "../../emulator/pipeline/route-table.ts";

// The pre-match in front of Hono must pick, for every path it answers, the route Hono would.

const routes = apiRoutes.map((r) => ({ method: r.method, path: r.path }));

function hono() {
  const app = new Hono({ strict: true });
  routes.forEach((r, i) => app.on(r.method, `/api/v1${r.path}`, (c) => c.json({ i, params: c.req.param() })));
  return app;
}

function table() {
  const t = new RouteTable<number>();
  routes.forEach((r, i) => t.add(r.method, r.path, i));
  return t;
}

/** Every route's pattern filled with values that collide with other routes' static words. */
function samplePaths(): string[] {
  const words = [...new Set(routes.flatMap((r) => r.path.split("/").filter((p) => p && !p.startsWith(":"))))];
  const fill = ["pokemon", "onepiece", "azuki", "base1-4", "42", "x.y", ...words.slice(0, 40)];
  const out = new Set<string>();
  for (const r of routes)
    for (const v of fill) out.add(r.path.replace(/:[a-zA-Z_]+(\{[^}]*\})?/g, v));
  return [...out];
}

describe("route table", () => {
  it("every API pattern is one the table takes on", () => {
    expect(routes.filter((r) => !RouteTable.supports(r.path))).toEqual([]);
  });

  it("picks Hono's route and params for every sample path and method", async () => {
    const app = hono();
    const t = table();
    let compared = 0;
    for (const path of samplePaths())
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const url = `http://127.0.0.1/api/v1${path}?q=1`;
        const res = await app.fetch(new Request(url, { method }));
        const viaHono = res.status === 200 ? ((await res.json()) as { i: number; params: Record<string, string> }) : null;
        const parts = segmentsUnder(url, "/api/v1/");
        const mine = parts ? t.match(method, parts) : null;
        expect(mine ? { i: mine.value, params: mine.params } : null, `${method} ${path}`).toEqual(viaHono);
        compared++;
      }
    expect(compared).toBeGreaterThan(1000);
  });

  it("leaves to Hono what needs its handling: escapes, empty segments, a trailing slash, other prefixes", () => {
    expect(segmentsUnder("http://h/api/v1/pokemon/cards/base1%2D4", "/api/v1/")).toBeNull();
    expect(segmentsUnder("http://h/api/v1/pokemon//cards", "/api/v1/")).toBeNull();
    expect(segmentsUnder("http://h/api/v1/mystery/catalog/", "/api/v1/")).toBeNull();
    expect(segmentsUnder("http://h/_emulator/keys", "/api/v1/")).toBeNull();
    expect(segmentsUnder("http://h/api/v1", "/api/v1/")).toBeNull();
    expect(segmentsUnder("http://h:8080/api/v1/pokemon/cards?x=/a/b#f", "/api/v1/")).toEqual(["pokemon", "cards"]);
    expect(segmentsUnder("http://h/api/v1/webhooks#frag", "/api/v1/")).toEqual(["webhooks"]);
  });
});
