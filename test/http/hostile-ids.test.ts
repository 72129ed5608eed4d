import { describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator/index.ts";
import { rawCall, type Api } from "../helpers.ts";
import { apiRoutes } from "../../emulator/app.ts";
import { useEveryRoute, type EveryRoute } from "./every-route.ts";
import { expectError } from "../../conformance/assert.ts";

// JavaScript's built-in member names used as identifiers: a lookup that reads
// `record[id]` finds `constructor` or `toString` on every object, and a write
// to `record["__proto__"]` replaces a prototype. Every route must answer them
// as the unknown ids they are (a 4xx with a code), and the process must keep
// a clean Object.prototype, before and after a reset.

const HOSTILE = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype", "__defineGetter__"];

let emu: Emulator;
let api: Api;
let keyFor: EveryRoute["keyFor"];
const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();
useEveryRoute((ctx) => ({ emu, api, keyFor } = ctx));

/** Every path parameter set to `value` (a constrained one keeps its first allowed value). */
function fill(path: string, value: string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, (_m, _name: string, re?: string) =>
    re && re.includes("|") ? re.slice(1, -1).split("|")[0]! : value,
  );
}

/** Bodies that carry the name wherever routes take identifiers. */
function bodies(name: string): Record<string, unknown>[] {
  return [
    {
      unique_ids: [name],
      address: { name: "A", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" },
    },
    { unique_id: name, recipient_account_id: name, recipient: name, idempotency_key: `k-${name}` },
    { token_id: name, token_ids: [name], purchase_id: name, tier_id: name, card_id: name, external_user_id: name },
    { order_id: name, rate_id: name, inbound_shipment_id: name, webhook_id: name, feedback_id: name },
  ];
}

const withParams = apiRoutes.filter((r) => /:\w+(?!\{[^}]*\|)/.test(r.path.replace(/:\w+\{[^}]*\|[^}]*\}/g, "")));

describe("JavaScript built-in names as identifiers", () => {
  it.each(withParams.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s answers each name as an unknown id",
    async (_n, spec) => {
      const key = keyFor(spec);
      const problems: string[] = [];
      for (const name of HOSTILE) {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          "idempotency-key": `hostile-${name}`,
        };
        if (key) headers["x-api-key"] = key;
        const path = `/api/v1${fill(spec.path, encodeURIComponent(name))}`;
        const body0 = spec.method === "GET" || spec.method === "DELETE" ? undefined : "{}";
        const res = await rawCall(api, spec.method, path, headers, body0);
        const body = JSON.parse(res.text) as { success?: boolean; error?: unknown; code?: unknown };
        if (res.status < 400 || res.status >= 500)
          problems.push(`${res.status} ${spec.method} ${path} → ${JSON.stringify(body).slice(0, 160)}`);
        else if (body.success !== false || typeof (body.code ?? body.error) !== "string")
          problems.push(`no error code: ${spec.method} ${path}`);
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(
    apiRoutes
      .filter((r) => r.method !== "GET" && r.method !== "DELETE")
      .map((r) => [`${r.method} ${r.path}`, r] as const),
  )("%s: names in bodies are never a 500 and never touch Object.prototype", async (_n, spec) => {
    const key = keyFor(spec);
    const problems: string[] = [];
    for (const name of HOSTILE)
      for (const b of bodies(name)) {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          "idempotency-key": `hostile-body-${name}`,
        };
        if (key) headers["x-api-key"] = key;
        const path = `/api/v1${fill(spec.path, "1")}`;
        const res = await rawCall(api, spec.method, path, headers, JSON.stringify(b));
        const text = res.text;
        if (res.status >= 500 && res.status !== 503)
          problems.push(`${res.status} ${path} ${JSON.stringify(b)} → ${text.slice(0, 160)}`);
      }
    expect(problems).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
    expect({}.constructor).toBe(Object);
  });

  it("API keys named like built-ins are unknown keys (401), and the control plane answers 404", async () => {
    for (const name of HOSTILE) {
      const res = await api.get("/api/v1/pokemon/cards/base1-4").set("x-api-key", name);
      expect(res.status).toBe(401);
      expect((res.body as { error: string }).error).toBe("API key not found or inactive");
      expectError(await api.get(`/_emulator/credits/${encodeURIComponent(name)}`), 404, "not_found", name);
      const ev = await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key: name });
      expectError(ev, 404, "not_found", name);
    }
  });

  it("Object.prototype is untouched after everything above and after a reset", async () => {
    await emu.reset();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
    expect(Object.getOwnPropertyNames(Object.prototype).includes("unique_id")).toBe(false);
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });
});
