import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { apiRoutes, controlRoutes, createApp } from "../../emulator/app.ts";
import { TableRouter } from "../../emulator/pipeline/router.ts";
import { OPERATIONS, RouteTable, operationMatcher } from "../../contract/index.ts";

// One router (issue 27): the route table is Hono's router in the app, and the contract's operation
// matcher is the same table. It must pick, for every path, the route Hono's own router would.

const routes = [
  ...apiRoutes.map((r) => ({ method: r.method, path: `/api/v1${r.path}` })),
  ...controlRoutes.map((r) => ({ method: r.method, path: `/_emulator${r.path}` })),
];

function app(router?: TableRouter<never>) {
  const a = new Hono(router ? { strict: true, router } : { strict: true });
  routes.forEach((r, i) => a.on(r.method, r.path, (c) => c.json({ i, params: c.req.param() })));
  return a;
}

/** Every route's pattern filled with values that collide with other routes' static words, plus what needs care. */
function samplePaths(): string[] {
  const words = [...new Set(routes.flatMap((r) => r.path.split("/").filter((p) => p && !p.startsWith(":"))))];
  const escapes = ["base1%2D4", "a%2Fb", "caf%C3%A9", "", "a/b"];
  const fill = ["pokemon", "onepiece", "azuki", "base1-4", "42", "x.y", ...escapes, ...words.slice(0, 25)];
  const out = new Set<string>(["/api/v1/mystery/catalog/", "/api/v1//webhooks", "/api/v1", "/api/v1/", "/_emulator"]);
  for (const r of routes) for (const v of fill) out.add(r.path.replace(/:[a-zA-Z_]+(\{[^}]*\})?/g, v));
  return [...out];
}

describe("one router", () => {
  it("the app routes through the route table", () => {
    // Built only to read its router (its handlers read their emulator from each request's bindings).
    expect(createApp().router.name).toBe("RouteTable");
  });

  it("picks Hono's route and decoded params for every sample path and method", async () => {
    const hono = app();
    const table = app(new TableRouter());
    let compared = 0;
    for (const path of samplePaths())
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]) {
        const url = `http://127.0.0.1${path}?q=1`;
        const a = await hono.fetch(new Request(url, { method }));
        const b = await table.fetch(new Request(url, { method }));
        expect(b.status, `${method} ${path}`).toBe(a.status);
        expect(await b.text(), `${method} ${path}`).toBe(await a.text());
        compared++;
      }
    expect(compared).toBeGreaterThan(5000);
  });

  it("the contract's operation matcher is the table: a literal beats a parameter, whatever the order", () => {
    const match = operationMatcher(OPERATIONS);
    expect(match("GET", "/api/v1/webhooks/deliveries")?.path).toBe("/webhooks/deliveries");
    expect(match("GET", "/api/v1/webhooks/wh_1")?.path).toBe("/webhooks/:id");
    expect(match("GET", "/api/v1/webhooks/")).toBeNull();
    expect(match("DELETE", "/api/v1/health")).toBeNull();
    // Every operation is found at its own path.
    for (const op of OPERATIONS) {
      // A word-list param takes its first word, any other one a plain value.
      const fill = (_m: string, _b?: string, word?: string) => word ?? "p1";
      const path = `/api/v1${op.path}`.replace(/:\w+(\{([\w-]+)[^}]*\})?/g, fill);
      expect(match(op.method, path)?.path, `${op.method} ${path}`).toBe(op.path);
    }
  });

  it("tables of the same routes share the compiled paths but answer their own values; a later add is routed", () => {
    const a = new RouteTable<string>();
    const b = new RouteTable<string>();
    for (const [t, tag] of [
      [a, "a"],
      [b, "b"],
    ] as const) {
      t.add("GET", "/webhooks/deliveries", `${tag}:deliveries`);
      t.add("GET", "/webhooks/:id", `${tag}:one`);
      t.add("GET", "/images/:path{.+}", `${tag}:image`);
    }
    expect(a.match("GET", "/webhooks/wh_1")).toEqual({ value: "a:one", params: { id: "wh_1" } });
    expect(b.match("GET", "/webhooks/wh_1")).toEqual({ value: "b:one", params: { id: "wh_1" } });
    expect(b.match("GET", "/webhooks/deliveries")?.value).toBe("b:deliveries");
    expect(a.match("GET", "/images/x/y.png")).toEqual({ value: "a:image", params: { path: "x/y.png" } });
    expect(a.match("POST", "/webhooks")).toBeNull();
    // Routes added after a match are compiled in (the first registered still wins).
    a.add("POST", "/webhooks", "a:create");
    a.add("GET", "/webhooks/:other", "a:shadowed");
    expect(a.match("POST", "/webhooks")?.value).toBe("a:create");
    expect(a.match("GET", "/webhooks/wh_2")?.value).toBe("a:one");
    expect(b.match("POST", "/webhooks")).toBeNull();
  });

  it("refuses what it cannot route exactly (optional params, middleware)", () => {
    expect(() => new RouteTable<number>().add("GET", "/a/:b?", 1)).toThrow(/optional/);
    expect(() => new Hono({ router: new TableRouter() }).use("*", async (_c, next) => next())).toThrow(/middleware/);
  });
});
