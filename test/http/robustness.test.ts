import { describe, it, expect } from "vitest";
import { openStream, rawCall, type Api } from "../helpers.ts";
import { apiRoutes, controlRoutes } from "../../emulator/app.ts";
import { useEveryRoute, type EveryRoute } from "./every-route.ts";

// Bad input gets a clear 4xx, never a 500: every API route, with a key that
// passes its access rule, is sent junk path parameters, bodies and queries.

let api: Api;
let keyFor: EveryRoute["keyFor"];
useEveryRoute((ctx) => ({ api, keyFor } = ctx));

const JUNK_PARAMS = ["x", "0", "-1", "999999999999999999999", "%F0%9F%92%A5", "null", "0x" + "f".repeat(64)];
const JUNK_BODIES: (string | undefined)[] = [
  undefined,
  "",
  "{not json",
  "[]",
  "null",
  "42",
  '"text"',
  "{}",
  JSON.stringify({ a: { b: [1, { c: null }] } }),
  JSON.stringify({
    tier_id: "one",
    wallet_address: 5,
    usd: -1,
    url: 7,
    event_types: "x",
    unique_ids: "CARD-1",
    address: [],
    shipping_address: "x",
    token_ids: [null],
    tx_hash: {},
    limit: "abc",
    amount: {},
  }),
];
const JUNK_QUERIES = [
  "",
  "?limit=abc&offset=-5",
  "?q=%28%28%28&include=%00&select=,,,",
  "?status=NOPE&since=r:%%%&type=zzz&card_id=&token_id=&usd=1e999",
];

function fill(path: string, value: string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, (_m, name: string, re?: string) =>
    re ? (re.slice(1, -1).split("|")[0] ?? value) : name === "path" ? value : value,
  );
}

describe("every API route answers junk with a 4xx envelope, never a 500", () => {
  it.each(apiRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))("%s", async (_name, spec) => {
    const key = keyFor(spec);
    const problems: string[] = [];
    const cases: { path: string; body?: string }[] = [];
    for (const p of JUNK_PARAMS) for (const q of JUNK_QUERIES) cases.push({ path: `/api/v1${fill(spec.path, p)}${q}` });
    if (spec.method !== "GET" && spec.method !== "DELETE")
      for (const b of JUNK_BODIES) cases.push({ path: `/api/v1${fill(spec.path, "1")}`, body: b });
    for (const c of cases) {
      const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": "robustness" };
      if (key) headers["x-api-key"] = key;
      const res = await rawCall(api, spec.method, c.path, headers, c.body);
      const text = res.text;
      if (res.status >= 500 && res.status !== 503)
        problems.push(`${res.status} ${c.path} ${c.body ?? ""} → ${text.slice(0, 160)}`);
      if (res.status >= 400) {
        let body: { success?: unknown; message?: unknown } | null = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* reported below */
        }
        if (!body || body.success !== false || typeof body.message !== "string")
          problems.push(`bad error envelope ${res.status} ${c.path}: ${text.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("every control-plane route answers junk with a 4xx envelope, never a 500", () => {
  // reset/restore/state replace everything; keep them for the dedicated tests.
  const skip = new Set(["/reset", "/state", "/restore"]);
  it.each(controlRoutes.filter((r) => !skip.has(r.path)).map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s",
    async (_name, spec) => {
      const problems: string[] = [];
      const cases: { path: string; body?: string }[] = [];
      for (const p of JUNK_PARAMS)
        cases.push({ path: `/_emulator${fill(spec.path, p)}?limit=abc&key=zz&account_id=%00` });
      if (spec.method !== "GET" && spec.method !== "DELETE")
        for (const b of JUNK_BODIES) cases.push({ path: `/_emulator${fill(spec.path, "1")}`, body: b });
      for (const c of cases) {
        // A live stream (the dashboard's server-sent events) never ends by design: junk query
        // parameters must not break it, so check its status and media type, then hang up.
        if (spec.path === "/ui/stream") {
          const stream = await openStream(api.get(c.path));
          stream.close();
          if (stream.status !== 200 || !stream.type.startsWith("text/event-stream"))
            problems.push(`stream answered ${stream.status} ${stream.type} ${c.path}`);
          continue;
        }
        const res = await rawCall(api, spec.method, c.path, { "content-type": "application/json" }, c.body);
        if (res.status >= 500 && res.status !== 503)
          problems.push(`${res.status} ${c.path} ${c.body ?? ""} → ${res.text.slice(0, 160)}`);
      }
      await api.delete("/_emulator/faults");
      await api.post("/_emulator/clock").send({ mode: "manual" });
      expect(problems).toEqual([]);
    },
  );
});
