import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { StateExport } from "../../emulator/index.ts";
import { apiRoutes } from "../../emulator/app.ts";
import type { RouteSpec } from "../../emulator/pipeline/route.ts";
import { PARTNER_SCOPES } from "../../emulator/state/plans.ts";
import { newKey, useEmulator, type Api, type Emulator } from "../helpers.ts";

// Issue 37 item 13, as a property: a real export changed at any one place is
// either refused (400 invalid_state, and the state is exactly as before) or
// taken (200), and then every read of every area still answers without a 5xx.

// Without a chain: an import with one replays its journal, too slow for many runs; the chain's own numbers
// (deposit_scan_block …) are in the table of test/state/import-deep.test.ts.
let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx), { ipRateLimitPerMin: 1e9 });
const keys = { pool: "", revenueShare: "", tenant: "" };

/** A key that passes the route's access rule (null: a public route). */
function keyFor(spec: RouteSpec): string | null {
  if (spec.access === "public") return null;
  if (spec.access.kinds.includes("tenant") && !spec.access.kinds.includes("partner")) return keys.tenant;
  if (spec.access.models && !spec.access.models.includes("POOL")) return keys.revenueShare;
  return keys.pool;
}

async function makeKeys(): Promise<void> {
  const limits = { rate_limit_per_min: 1e9, partner_rate_limit_per_min: 1e9, balance: 1e6 };
  keys.pool = await newKey(api, { ...limits, kind: "partner", billing_model: "POOL", scopes: [...PARTNER_SCOPES] });
  keys.revenueShare = await newKey(api, {
    ...limits,
    kind: "partner",
    billing_model: "TIER",
    scopes: PARTNER_SCOPES.filter((s) => s !== "pool:manage"),
  });
  keys.tenant = await newKey(api, { ...limits, kind: "tenant" });
}

type Path = (string | number)[];

/** Every place in the document (objects' entries and arrays' items), breadth first, capped per level. */
function places(doc: unknown): Path[] {
  const out: Path[] = [];
  const walk = (v: unknown, path: Path) => {
    if (path.length) out.push(path);
    if (Array.isArray(v)) v.slice(0, 3).forEach((c, i) => walk(c, [...path, i]));
    else if (v && typeof v === "object") for (const [k, c] of Object.entries(v).slice(0, 6)) walk(c, [...path, k]);
  };
  walk(doc, []);
  return out;
}

const VALUES: unknown[] = [
  null,
  "abc",
  "12.5",
  "",
  "-1",
  "9".repeat(80),
  "+010000-01-15T00:00:00Z",
  -1,
  1.5,
  1e300,
  2 ** 53,
  0,
  true,
  {},
  [],
  [null],
  { __proto__: null },
  "__proto__",
];
const DELETE = Symbol("delete");

function mutate(doc: unknown, path: Path, value: unknown): void {
  let at = doc as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === DELETE) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else Object.defineProperty(at, last, { value, enumerable: true, writable: true, configurable: true });
}

/** A 5xx other than "no chain here" (this emulator runs without one). */
const broken = (res: { status: number; text: string }) =>
  res.status >= 500 && !(res.status === 503 && res.text.includes("chain_unavailable"));

/** Every parameterless GET of the API with a key that passes it, plus the wallet's reads for a user. */
async function readsAnswer(): Promise<string[]> {
  const bad: string[] = [];
  const gets = apiRoutes.filter((r) => r.method === "GET" && !r.path.includes(":"));
  for (const spec of gets) {
    const key = keyFor(spec);
    const req = api.get(`/api/v1${spec.path}`);
    const res = key ? await req.set("X-API-Key", key) : await req;
    if (broken(res)) bad.push(`GET ${spec.path}: ${res.status} ${res.text.slice(0, 120)}`);
  }
  for (const path of ["balance", "ledger", "deposits"]) {
    const res = await api.get(`/api/v1/wallet/${path}?external_user_id=acme-user-1`).set("X-API-Key", emu.key("demo"));
    if (broken(res)) bad.push(`wallet ${path}: ${res.status}`);
  }
  // And every parameterless read of the control plane (its index lists them).
  const index = (await api.get("/_emulator").expect(200)).body.data.routes as { method: string; path: string }[];
  // (Not the dashboard's event stream: it never ends.)
  for (const r of index.filter((r) => r.method === "GET" && !r.path.includes(":") && !r.path.endsWith("/stream"))) {
    const res = await api.get(r.path);
    if (broken(res)) bad.push(`${r.path}: ${res.status}`);
  }
  return bad;
}

describe("an export changed at one place", () => {
  it("is refused with the state unchanged, or taken and every read still answers", async () => {
    await makeKeys();
    // Every area in use, so its slice is in the export.
    expect(await readsAnswer()).toEqual([]);
    const base = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
    const all = places(base).filter((p) => p[0] === "state" || p[0] === "now");
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: all.length - 1 }),
        fc.constantFrom<unknown>(...VALUES, DELETE),
        async (i, value) => {
          const before = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
          const doc = structuredClone(base);
          mutate(doc, all[i]!, value);
          const res = await api
            .put("/_emulator/state")
            .set("Content-Type", "application/json")
            .send(JSON.stringify(doc));
          if (res.status === 400) {
            expect(res.body.error).toBe("invalid_state");
            const after = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
            expect(after.state).toEqual(before.state);
          } else {
            expect(res.status).toBe(200);
            expect(await readsAnswer()).toEqual([]);
          }
        },
      ),
      { numRuns: 100, seed: 37 },
    );
  }, 300_000);
});
