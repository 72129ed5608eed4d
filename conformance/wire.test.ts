import { describe, it, expect } from "vitest";
import { routeFor, schemaFindings, forRequest, WireSession, pointer } from "./wire.ts";
import { z } from "../emulator/pipeline/schema.ts";
import type { Exchange } from "../harness/http.ts";
import { signatureHeader } from "../contract/webhook-signature.ts";

// The per-answer rules of wire.ts on hand-made answers (no emulator): what a
// conforming answer looks like, and the message each kind of defect gets.

const card = { id: "base1-4", name: "Charizard", number: "4" };
const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "x-ratelimit-limit": "300",
  "x-ratelimit-remaining": "299",
  "x-ratelimit-reset": "1800000060",
};
let seq = 0;

function exchange(
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  key = "rip_v1_k1",
): Exchange {
  const text = JSON.stringify(body);
  return {
    method,
    url: new URL(path, "http://target.test"),
    requestHeaders: key ? { "x-api-key": key } : {},
    requestBody: undefined,
    result: { status, headers: { ...HEADERS, "x-request-id": `req_${++seq}`, ...headers }, body, text },
    ms: 1,
    startedAt: seq * 10,
  };
}

const texts = (s: WireSession, x: Exchange) => s.observe(x).map((f) => f.text);

describe("route matching (from the registry, as the app matches)", () => {
  it("finds the route of a method and path, game patterns included; unknown paths have none", () => {
    expect(routeFor("GET", "/api/v1/pokemon/cards/base1-4")?.path).toBe("/:game{pokemon|onepiece|azuki}/cards/:id");
    expect(routeFor("GET", "/api/v1/pokemon/cards/base1-4/prices")?.path).toBe(
      "/:game{pokemon|onepiece|azuki}/cards/:id/prices",
    );
    expect(routeFor("GET", "/api/v1/magic/cards/x")).toBeNull();
    expect(routeFor("DELETE", "/api/v1/pokemon/cards/base1-4")).toBeNull();
    expect(routeFor("GET", "/api/v1/health")?.access).toBe("public");
  });
});

describe("schema findings", () => {
  const schema = z.object({
    id: z.string(),
    name: z.string(),
    number: z.string(),
    nested: z.strictObject({ a: z.number() }).optional(),
  });
  it("a renamed, a missing and a retyped field fail with the JSON pointer, expected and received", () => {
    const { failures, unknown } = schemaFindings(schema, { id: "x", card_name: "C", number: 4 });
    expect(failures).toEqual([
      "/data/name: expected string, received nothing (missing)",
      "/data/number: expected string, received 4 (number)",
    ]);
    expect(unknown).toEqual([]);
  });
  it("unknown fields are warnings, not failures, on plain and strict objects alike", () => {
    const r = schemaFindings(schema, { ...card, extra: 1, nested: { a: 1, b: 2 } });
    expect(r.failures).toEqual([]);
    expect(r.unknown.sort()).toEqual(["/data/extra", "/data/nested/b"]);
  });
  it("a union reports the option the value comes nearest to", () => {
    const u = z.union([
      z.object({ kind: z.literal("a"), n: z.number() }),
      z.object({ kind: z.literal("b"), s: z.string() }),
    ]);
    expect(schemaFindings(u, { kind: "b", s: 5 }).failures).toEqual(["/data/s: expected string, received 5 (number)"]);
  });
  it("without select, the declared select variant does not excuse a missing field; with select it is the schema", () => {
    const full = z.strictObject({ id: z.string(), name: z.string() });
    const spec = {
      description: "page",
      data: z.array(full),
      variant: {
        query: "select",
        description: "With select",
        data: z.array(full.partial().extend({ id: z.string() })),
      },
    };
    expect(schemaFindings(forRequest(spec, new URLSearchParams())!, [{ id: "x" }]).failures).toEqual([
      "/data/0/name: expected string, received nothing (missing)",
    ]);
    expect(schemaFindings(forRequest(spec, new URLSearchParams("select=id"))!, [{ id: "x" }]).failures).toEqual([]);
    expect(schemaFindings(forRequest(spec, new URLSearchParams("select=id"))!, [{ name: "x" }]).failures).toEqual([
      "/data/0/id: expected string, received nothing (missing)",
    ]);
  });
  it("pointers escape ~ and /", () => expect(pointer(["data", "a/b", "c~d", 0])).toBe("/data/a~1b/c~0d/0"));
});

describe("every answer", () => {
  it("a conforming card answer passes; a second key's window is its own", () => {
    const s = new WireSession();
    expect(
      texts(
        s,
        exchange("GET", "/api/v1/health", 200, {
          success: true,
          data: { status: "ok", time: "2026-01-01T00:00:00.000Z" },
        }),
      ),
    ).toEqual([]);
    expect(s.findings).toEqual([]);
  });

  it("media type, X-Request-Id (present, never reused) and the envelope are checked", () => {
    const s = new WireSession();
    const ok = { success: true, data: { status: "ok", time: "t" } };
    expect(texts(s, exchange("GET", "/api/v1/health", 200, ok, { "content-type": "text/html" }))[0]).toContain(
      "Content-Type must be application/json",
    );
    const a = exchange("GET", "/api/v1/health", 200, ok);
    s.observe(a);
    expect(texts(s, { ...a, result: { ...a.result } })[0]).toContain("was already given");
    expect(
      texts(s, exchange("GET", "/api/v1/conformance/nothing", 404, { success: false, message: "m", error: 7 }))[0],
    ).toContain("/error: expected string, received 7");
    expect(texts(s, exchange("GET", "/api/v1/health", 200, { ok: true, data: {} }))[0]).toContain(
      "/success: expected true",
    );
  });

  it("429 and retryable 503 carry Retry-After; a 503 that says it is not retryable need not", () => {
    const s = new WireSession();
    const err = (code: string, retryable: boolean) => ({ success: false, message: "m", error: code, retryable });
    const noRetry = (x: Exchange) => texts(s, x).filter((t) => t.includes("Retry-After"));
    expect(
      noRetry(exchange("GET", "/api/v1/mystery/tiers", 503, err("overloaded", true), {}, "rip_v1_a"))[0],
    ).toContain("Retry-After must be whole seconds > 0");
    expect(
      noRetry(
        exchange("GET", "/api/v1/mystery/tiers", 503, err("overloaded", true), { "retry-after": "1" }, "rip_v1_b"),
      ),
    ).toEqual([]);
    expect(
      noRetry(exchange("GET", "/api/v1/mystery/tiers", 503, err("chain_unavailable", false), {}, "rip_v1_c")),
    ).toEqual([]);
  });

  it("rate-limit headers: integers, 0 ≤ Remaining ≤ Limit, and falling by at least one per counted request", () => {
    const s = new WireSession();
    const miss = { success: false, message: "m", error: "not_found" };
    const at = (remaining: string, reset = "1800000060") =>
      exchange("GET", "/api/v1/pokemon/cards/zz", 404, miss, {
        "x-ratelimit-remaining": remaining,
        "x-ratelimit-reset": reset,
      });
    expect(texts(s, at("10"))).toEqual([]);
    expect(texts(s, at("9"))).toEqual([]);
    expect(texts(s, at("9"))[0]).toContain("must fall by at least one per request");
    expect(texts(s, at("12", "1800000070"))).toEqual([]); // the window slid: older requests left it
    expect(texts(s, at("301"))[0]).toContain("must lie in 0..300");
    expect(texts(s, at("abc"))[0]).toContain("x-ratelimit-remaining must be an integer");
  });

  it("overlapping calls of one key are not compared (their answers have no order)", () => {
    const s = new WireSession();
    const miss = { success: false, message: "m", error: "not_found" };
    const a = exchange("GET", "/api/v1/pokemon/cards/zz", 404, miss, { "x-ratelimit-remaining": "9" });
    const b = exchange("GET", "/api/v1/pokemon/cards/zz", 404, miss, { "x-ratelimit-remaining": "10" });
    expect(texts(s, { ...a, startedAt: 0, ms: 50 })).toEqual([]);
    expect(texts(s, { ...b, startedAt: 10, ms: 50 })).toEqual([]); // sent before the first answer arrived
    expect(
      texts(s, {
        ...exchange("GET", "/api/v1/pokemon/cards/zz", 404, miss, { "x-ratelimit-remaining": "10" }),
        startedAt: 100,
        ms: 1,
      })[0],
    ).toContain("must fall by at least one");
  });

  it("credit headers: the route's cost on a 2xx, 0 on a refund, and the balance falls by exactly the cost", () => {
    const s = new WireSession();
    const miss = { success: false, message: "m", error: "not_found" };
    const credit = (status: number, cost: string, remaining: string, remainingRate: string) =>
      exchange("GET", "/api/v1/pokemon/cards/zz", status, miss, {
        "x-credits-cost": cost,
        "x-credits-remaining": remaining,
        "x-ratelimit-remaining": remainingRate,
      });
    expect(texts(s, credit(404, "0", "100", "200"))).toEqual([]);
    expect(texts(s, credit(404, "1", "99", "199"))[0]).toContain("a 404 is refunded: X-Credits-Cost must be 0");
    const s2 = new WireSession();
    expect(texts(s2, credit(404, "0", "100", "200"))).toEqual([]);
    expect(texts(s2, credit(404, "0", "98", "199"))[0]).toContain("100 − X-Credits-Cost 0 = 100, received 98");
    // A route that is not metered (commerce is billed on volume) charges nothing.
    const stats = (cost: string) =>
      exchange("GET", "/api/v1/mystery/stats", 200, { success: true, data: {} }, { "x-credits-cost": cost });
    const s3 = new WireSession();
    expect(texts(s3, stats("0")).filter((t) => t.includes("X-Credits-Cost"))).toEqual([]);
    expect(texts(s3, stats("1")).filter((t) => t.includes("X-Credits-Cost"))).toEqual([
      'GET /api/v1/mystery/stats → 200: gacha.stats is not metered (billed on volume, not in credits): X-Credits-Cost must be absent or 0, received "1" (string)',
    ]);
  });

  it("paging: offset pages agree with their rows and the request; Card Data pages with total_count", () => {
    const s = new WireSession();
    const deliveries = (rows: number, pagination: Record<string, unknown>, q = "?limit=2&offset=0") =>
      exchange("GET", `/api/v1/webhooks/deliveries${q}`, 200, {
        success: true,
        data: { deliveries: Array.from({ length: rows }, () => ({})) },
        pagination,
      });
    const one = texts(s, deliveries(1, { limit: 2, offset: 0, has_more: true }));
    expect(one.some((t) => t.includes("has_more: true with 1 rows on a page of limit 2"))).toBe(true);
    expect(
      texts(s, deliveries(2, { limit: 5, offset: 0, has_more: false })).some((t) =>
        t.includes("/pagination/limit: expected 2"),
      ),
    ).toBe(true);
    const page = (rows: number, top: Record<string, unknown>, q = "?page=1&page_size=2") =>
      exchange("GET", `/api/v1/pokemon/cards${q}`, 200, {
        success: true,
        data: Array.from({ length: rows }, () => card),
        language: "en",
        ...top,
      });
    expect(
      texts(s, page(1, { page: 1, page_size: 2, total_count: 5 })).some((t) =>
        t.includes("must hold page_size 2 rows, received 1"),
      ),
    ).toBe(true);
    expect(
      texts(s, page(2, { page: 1, page_size: 2, total_count: 1 })).some((t) =>
        t.includes("/total_count: 1 is less than the rows"),
      ),
    ).toBe(true);
  });

  it("media: a charset other than utf-8 fails (RFC 8259 §8.1); utf-8 in any case, or none, passes", () => {
    const health = (ctype: string) =>
      texts(
        new WireSession(),
        exchange(
          "GET",
          "/api/v1/health",
          200,
          { success: true, data: { status: "ok" } },
          { "content-type": ctype },
          "",
        ),
      );
    expect(health("application/json; charset=latin1").some((t) => t.includes("charset must be utf-8"))).toBe(true);
    expect(health('application/json; charset="ISO-8859-1"').some((t) => t.includes("charset must be utf-8"))).toBe(
      true,
    );
    expect(health("application/json; charset=UTF-8").filter((t) => t.includes("charset"))).toEqual([]);
    expect(health("application/json").filter((t) => t.includes("charset"))).toEqual([]);
  });

  it("an error code, or an error status, the operation does not declare fails the check (not a warning)", () => {
    const s = new WireSession();
    // A 409 of the orders carries the order as it is now (invariant warehouse.conflict-carries-order).
    const superseded = { order_id: 7, status: "CANCELLED", cancel_reason: "superseded" };
    const commit = (status: number, code: string) =>
      exchange(
        "POST",
        "/api/v1/orders",
        status,
        { success: false, message: "m", error: "e", code, data: superseded },
        {},
        "rip_v1_t1",
      );
    expect(texts(s, commit(409, "quote_superseded"))).toEqual([]);
    expect(texts(s, commit(409, "quote_gone"))[0]).toContain(
      'code "quote_gone" is not among the codes the route declares for 409',
    );
    expect(texts(s, commit(418, "teapot"))[0]).toContain("status 418 is not among the route's declared answers");
  });
});

describe("webhook deliveries (the delivery invariants)", () => {
  const URL_ = "http://127.0.0.1:9/hook";
  const SECRET = "a".repeat(64);
  const body = JSON.stringify({
    event: "purchase.fulfilled",
    id: "purchase.fulfilled:emu_1",
    data: { purchase_id: 1, status: "FULFILLED" },
  });
  const delivery = (text: string, secret = SECRET, t = 1_800_000_000_000) => ({
    url: URL_,
    headers: {
      "x-mystery-event": "purchase.fulfilled",
      "x-mystery-delivery": "purchase.fulfilled:emu_1",
      "x-mystery-timestamp": String(t),
      "x-mystery-signature": signatureHeader(secret, t, text),
    },
    body: text,
  });
  const registered = () => {
    const s = new WireSession();
    const reg = {
      id: 3,
      url: URL_,
      event_types: [],
      is_active: true,
      created_at: "2026-01-15T12:00:00.000Z",
      updated_at: "2026-01-15T12:00:00.000Z",
      signing_secret: SECRET,
    };
    expect(texts(s, exchange("POST", "/api/v1/webhooks", 201, { success: true, data: reg }))).toEqual([]);
    return s;
  };

  it("a delivery signed with the registered secret, and its retries with the same body, keep every rule", () => {
    const s = registered();
    expect(s.observeDelivery(delivery(body)).map((f) => f.text)).toEqual([]);
    expect(s.observeDelivery(delivery(body, SECRET, 1_800_000_030_000)).map((f) => f.text)).toEqual([]);
  });

  it("a broken one names the rule, the event, the pointer and the delivery id", () => {
    const s = registered();
    expect(s.observeDelivery(delivery(body, "b".repeat(64))).map((f) => [f.invariant, f.text])).toEqual([
      [
        "delivery.signature-verifies",
        `POST ${URL_} (a delivery): invariant delivery.signature-verifies broken by delivery purchase.fulfilled at X-Mystery-Signature: sha256=${signatureHeader("b".repeat(64), 1_800_000_000_000, body).slice(23, 35)}… is no HMAC of "<t>.<raw body>" under the signing secret registration showed (X-Mystery-Delivery purchase.fulfilled:emu_1)`,
      ],
    ]);
    const retry = body.replace('"purchase_id":1', '"purchase_id":2');
    expect(s.observeDelivery(delivery(retry)).map((f) => f.text)).toEqual([
      `POST ${URL_} (a delivery): invariant delivery.retries-same-body broken by delivery purchase.fulfilled at /data: a retry of purchase.fulfilled:emu_1 changed data: expected {"purchase_id":1,"status":"FULFILLED"} (an earlier attempt), received {"purchase_id":2,"status":"FULFILLED"} (X-Mystery-Delivery purchase.fulfilled:emu_1)`,
    ]);
  });
});
