import type { Check } from "../types.ts";
import { emulatorOnly, runs } from "../types.ts";
import { rateCeilingBySandbox, rateLimitedBySandbox } from "./rate-window.ts";
import { ensure, env, expectError, expectNoHeader, expectStatus, expectSuccess, intHeader } from "../assert.ts";

// Checks of the request pipeline: envelopes, auth, rate-limit and credit
// headers, metering arithmetic and refunds. A well-known card (base1-4 exists
// in the live catalog and in the emulator's fixtures) is the probe.

export const PROBE = "/api/v1/pokemon/cards/base1-4";
const MISSING = "/api/v1/pokemon/cards/conformance-missing-0";
const UNKNOWN_PATH = "/api/v1/conformance/unknown-path";

export const pipelineChecks: Check[] = [
  {
    id: "pipeline.health-public",
    guards: "docs/reference/api-rules.md “Authentication”",
    profile: "pipeline",
    title: "GET /api/v1/health needs no key",
    rule: "Every request except GET /health carries X-API-Key; health is the only call that needs no key.",
    ...runs("read-only"),
    deviation: "health_requires_key",
    async run({ http }) {
      const r = await http.get("/api/v1/health");
      expectSuccess(r, "GET /api/v1/health without a key");
    },
  },
  {
    id: "pipeline.json-utf8",
    guards: "docs/reference/live-service.md “Hosts and request ids” (HTTP/JSON); RFC 8259 §8.1 (JSON is UTF-8)",
    profile: "pipeline",
    title: "Every answer is application/json in UTF-8",
    rule: "Answers are application/json; a charset parameter, when sent, is utf-8 (checked on every answer by the wire).",
    ...runs("read-only"),
    deviation: "content_type_latin1",
    async run({ http }) {
      for (const r of [await http.get("/api/v1/health"), await http.get(UNKNOWN_PATH)]) {
        const ctype = r.headers["content-type"] ?? "";
        ensure(/^application\/json\s*(;|$)/i.test(ctype), `Content-Type must be application/json, got "${ctype}"`);
      }
    },
  },
  {
    id: "pipeline.unknown-path-404",
    guards: "docs/reference/api-rules.md “Error codes” (404 not_found for any path not under /api/v1)",
    profile: "pipeline",
    title: "Unknown paths under /api/v1 are 404 not_found",
    rule: "404 not_found also for any path not existing under /api/v1.",
    ...runs("read-only"),
    deviation: "unknown_path_wrong_code",
    async run({ http, partnerKey }) {
      expectError(await http.get(UNKNOWN_PATH), 404, "not_found", "unknown path without a key");
      expectError(await http.get(UNKNOWN_PATH, { key: partnerKey }), 404, "not_found", "unknown path with a key");
    },
  },
  {
    id: "pipeline.auth-401",
    guards: "docs/reference/api-rules.md “Error codes” (401) and “Credits and billing” (billing rules)",
    profile: "pipeline",
    title: "Missing or unknown key → 401, not charged",
    rule: "A failed authentication returns 401 and is never charged.",
    ...runs("read-only"),
    deviation: "status_401_as_403",
    async run({ http }) {
      for (const [what, key] of [
        ["no key", null],
        ["unknown key", "rip_v1_conformanceconformanceconformanceconfor"],
      ] as const) {
        const r = await http.get(PROBE, { key });
        expectStatus(r, 401, what);
        ensure(env(r).success === false, `${what}: body must have success:false`);
        expectNoHeader(r, "X-Credits-Cost", what);
      }
    },
  },
  {
    id: "pipeline.tenant-key-403",
    guards:
      "docs/reference/api-rules.md “Error codes” (403 Insufficient permissions) and “Credits and billing” (billing rules)",
    profile: "pipeline",
    title: "A tenant key on a catalog route → 403, not charged",
    rule: "Missing scope or wrong key kind returns 403 (Insufficient permissions) and is never charged.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "tenant_reads_catalog",
    async run({ http, tenantKey }) {
      const r = await http.get(PROBE, { key: tenantKey });
      expectError(r, 403, "Insufficient permissions", "tenant key on the catalog");
      expectNoHeader(r, "X-Credits-Cost", "403");
    },
  },
  {
    id: "pipeline.envelopes",
    guards: "docs/reference/api-rules.md “Response envelope” and “Error envelope”",
    profile: "pipeline",
    title: "Success and error bodies use the envelope",
    rule: "Success: {success:true, data}; error: {success:false, message, error}.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "bare_success_body",
    async run({ http, partnerKey }) {
      const ok = expectSuccess(await http.get(PROBE, { key: partnerKey }), "GET a card");
      ensure(ok.data && typeof ok.data === "object", "data must be an object for a single card");
      expectError(await http.get(MISSING, { key: partnerKey }), 404, "not_found", "GET a missing card");
    },
  },
  {
    id: "pipeline.ratelimit-headers",
    guards:
      "docs/reference/api-rules.md “Other limits” (Rate limit); docs/reference/live-service.md “Rate limits and caching”",
    profile: "pipeline",
    title: "X-RateLimit-* on every response, counting down",
    rule: "X-RateLimit-* headers on every response (GET /health too, though not counted); X-RateLimit-Limit shows the ceiling in force.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "no_ratelimit_headers",
    async run({ http, partnerKey, control, note }) {
      const a = await http.get(PROBE, { key: partnerKey });
      const b = await http.get(MISSING, { key: partnerKey });
      // Health too: not counted, but "on every response" (docs/reference/api-rules.md “Other limits”).
      const health = await http.get("/api/v1/health");
      for (const [what, r] of [
        ["200", a],
        ["404", b],
        ["GET /health", health],
      ] as const) {
        const limit = intHeader(r, "X-RateLimit-Limit", what);
        const remaining = intHeader(r, "X-RateLimit-Remaining", what);
        intHeader(r, "X-RateLimit-Reset", what);
        ensure(remaining >= 0 && remaining <= limit, `${what}: remaining ${remaining} outside 0..${limit}`);
      }
      const [la, lb] = [Number(a.headers["x-ratelimit-limit"]), Number(b.headers["x-ratelimit-limit"])];
      ensure(la === lb, `X-RateLimit-Limit must stay the ceiling in force for the key, got ${la} then ${lb}`);
      const ra = Number(a.headers["x-ratelimit-remaining"]);
      const rb = Number(b.headers["x-ratelimit-remaining"]);
      ensure(rb <= lb - 1, `the second request counts itself: X-RateLimit-Remaining ${rb} of ${lb}`);
      const [ta, tb] = [Number(a.headers["x-ratelimit-reset"]), Number(b.headers["x-ratelimit-reset"])];
      ensure(tb >= ta, `X-RateLimit-Reset never goes back: ${ta} then ${tb}`);
      // A used key's window slides meanwhile (its oldest requests leave it, Reset in whole seconds may stay): the
      // count down is judged exactly on a fresh key below, and on the key's whole window by pipeline.ratelimit-ceiling.
      if (control) ensure(rb < ra || ra === 0, `X-RateLimit-Remaining must count down (got ${ra} then ${rb})`);
      else if (rb >= ra) note(`the key's window slid between the two reads (${ra} then ${rb} left)`);
      if (control) {
        // A fresh key: its own ceiling is in force (the IP's is far higher), and nothing else used it.
        const { keys } = await control.request<{ keys: Array<{ key: string; rate_limit_per_min: number }> }>(
          "GET",
          "/keys",
        );
        const ceiling = keys.find((k) => k.key === partnerKey)?.rate_limit_per_min;
        ensure(la === ceiling, `X-RateLimit-Limit must be the key's ceiling ${ceiling}, got ${la}`);
        ensure(
          ra === la - 1 && rb === la - 2,
          `a fresh key's first two requests must leave ${la - 1} then ${la - 2}, got ${ra} then ${rb}`,
        );
      }
      note(`limit ${a.headers["x-ratelimit-limit"]}/min`);
    },
  },
  {
    id: "pipeline.ratelimit-ceiling",
    guards:
      "docs/reference/api-rules.md “Other limits” (Rate limit: X-RateLimit-Limit shows the ceiling in force); docs/reference/live-service.md “Rate limits and caching” (rolling 60 s)",
    profile: "pipeline",
    title: "X-RateLimit-* count a key's window exactly, down to the 429 and back after it slides",
    rule: "X-RateLimit-Limit is the key's ceiling; each request leaves one fewer in X-RateLimit-Remaining; the refusal shows 0 and a Retry-After that reaches X-RateLimit-Reset; the window rolls over 60 s.",
    // Emulator mode mints a key with a ceiling of 4; elsewhere the partner key's own window on a free route.
    ...runs("sandbox", ["partnerKey"], 4),
    waitMs: 61_000,
    deviation: "ratelimit_remaining_stale",
    async run(ctx) {
      const { http, control } = ctx;
      if (!control) return rateCeilingBySandbox(ctx);
      const ceiling = 4;
      const key = await control!.newKey({ kind: "partner", scopes: ["read:catalog"], rate_limit_per_min: ceiling });
      let reset = 0;
      for (let i = 1; i <= ceiling; i++) {
        const r = await http.get(PROBE, { key });
        expectSuccess(r, `request ${i} of ${ceiling}`);
        ensure(
          intHeader(r, "X-RateLimit-Limit", `request ${i}`) === ceiling,
          `X-RateLimit-Limit must be the key's ceiling ${ceiling}, got ${r.headers["x-ratelimit-limit"]}`,
        );
        const remaining = intHeader(r, "X-RateLimit-Remaining", `request ${i}`);
        ensure(
          remaining === ceiling - i,
          `request ${i} of ${ceiling} must leave ${ceiling - i}, X-RateLimit-Remaining says ${remaining}`,
        );
        const at = intHeader(r, "X-RateLimit-Reset", `request ${i}`);
        // The virtual clock stands still: the oldest request, hence the reset, is the same for all.
        if (i > 1)
          ensure(
            at === reset,
            `X-RateLimit-Reset must stay ${reset} while the window's oldest request is unchanged, got ${at}`,
          );
        reset = at;
      }
      const refused = await http.get(PROBE, { key });
      expectError(refused, 429, "rate_limited", `request ${ceiling + 1} of ${ceiling}`);
      ensure(intHeader(refused, "X-RateLimit-Reset", "429") === reset, `the 429's X-RateLimit-Reset must be ${reset}`);
      const wait = intHeader(refused, "Retry-After", "429");
      ensure(wait >= 1 && wait <= 60, `Retry-After must be within the 60 s window, got ${wait}`);
      await control!.advance(wait * 1000);
      const again = await http.get(PROBE, { key });
      expectSuccess(again, `a request ${wait} s later (Retry-After)`);
      ensure(
        intHeader(again, "X-RateLimit-Remaining", "after the window slid") === ceiling - 1,
        `after the window slid one request is counted: expected ${ceiling - 1} left, got ${again.headers["x-ratelimit-remaining"]}`,
      );
      ensure(
        intHeader(again, "X-RateLimit-Reset", "after the window slid") > reset,
        "X-RateLimit-Reset must move on once the window slid",
      );
    },
  },
  {
    id: "pipeline.credit-headers",
    guards:
      "docs/reference/api-rules.md “Credits and billing” (response headers on metered calls; 1 credit per catalog read)",
    profile: "pipeline",
    title: "Metered responses carry X-Credits-Cost and X-Credits-Remaining",
    rule: "Every metered response carries the credit headers; a catalog read costs 1 credit.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "no_credit_headers",
    async run({ http, partnerKey }) {
      const r = await http.get(PROBE, { key: partnerKey });
      expectSuccess(r, "GET a card");
      ensure(
        intHeader(r, "X-Credits-Cost", "200") === 1,
        `X-Credits-Cost must be 1, got ${r.headers["x-credits-cost"]}`,
      );
      ensure(intHeader(r, "X-Credits-Remaining", "200") >= 0, "X-Credits-Remaining must be >= 0");
    },
  },
  {
    id: "pipeline.metering-arithmetic",
    guards: "docs/reference/api-rules.md “Credits and billing” (X-Credits-Remaining: balance after this call)",
    profile: "pipeline",
    title: "Each billed read lowers X-Credits-Remaining by exactly its cost",
    rule: "1 credit per catalog read regardless of result count; X-Credits-Remaining is the balance after the call.",
    ...runs("read-only", ["partnerKey"], 2),
    deviation: "double_charge",
    async run({ http, partnerKey }) {
      const a = await http.get(PROBE, { key: partnerKey });
      const b = await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { page_size: 3 } });
      expectSuccess(a, "first read");
      expectSuccess(b, "second read");
      const ra = intHeader(a, "X-Credits-Remaining", "first read");
      const rb = intHeader(b, "X-Credits-Remaining", "second read");
      const cost = intHeader(b, "X-Credits-Cost", "second read");
      ensure(ra - rb === cost && cost === 1, `balance went ${ra} → ${rb} for a call whose cost is ${cost}`);
    },
  },
  {
    id: "pipeline.refund-404",
    guards: "docs/reference/api-rules.md “Credits and billing” (billing rules: refunded on any 4xx or 5xx)",
    profile: "pipeline",
    title: "A 404 is refunded",
    rule: "The charge is taken up front and refunded when the response is any 4xx or 5xx.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "no_refund_on_404",
    async run({ http, partnerKey }) {
      const before = intHeader(expectBilled(await http.get(PROBE, { key: partnerKey })), "X-Credits-Remaining", "read");
      const miss = await http.get(MISSING, { key: partnerKey });
      expectError(miss, 404, "not_found", "missing card");
      const after = intHeader(miss, "X-Credits-Remaining", "404");
      ensure(after === before, `a 404 must leave the balance at ${before}, X-Credits-Remaining says ${after}`);
      ensure(intHeader(miss, "X-Credits-Cost", "404") === 0, "a refunded call reports X-Credits-Cost: 0");
    },
  },
  {
    id: "pipeline.refund-400",
    guards: "docs/reference/api-rules.md “Credits and billing” (billing rules: refunded on any 4xx or 5xx)",
    profile: "pipeline",
    title: "A 400 is refunded",
    rule: "Any 4xx or 5xx is refunded if a credit was charged up front.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "no_refund_on_400",
    async run({ http, partnerKey }) {
      const before = intHeader(expectBilled(await http.get(PROBE, { key: partnerKey })), "X-Credits-Remaining", "read");
      const bad = await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { limit: "abc" } });
      expectError(bad, 400, "invalid_pagination", "limit=abc");
      ensure(intHeader(bad, "X-Credits-Remaining", "400") === before, `a 400 must leave the balance at ${before}`);
    },
  },
  {
    id: "pipeline.invalid-pagination",
    guards:
      "docs/reference/api-rules.md “Error codes” (invalid_pagination); docs/reference/live-service.md “Pagination”",
    profile: "pipeline",
    title: "limit/offset with no integer → 400 invalid_pagination",
    rule: "invalid_pagination when limit or offset has no integer at all.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "lenient_pagination",
    async run({ http, partnerKey }) {
      const queries: Record<string, string>[] = [{ limit: "abc" }, { offset: "x1" }];
      for (const query of queries)
        expectError(
          await http.get("/api/v1/pokemon/cards", { key: partnerKey, query }),
          400,
          "invalid_pagination",
          `?${new URLSearchParams(query)}`,
        );
    },
  },
  {
    id: "pipeline.limit-clamp",
    guards:
      "docs/reference/api-rules.md “Other limits” (page_size up to 100); docs/reference/live-service.md “Pagination”",
    profile: "pipeline",
    title: "limit is read as a leading integer and clamped to 100",
    rule: "A value with a leading integer is read like a leading-integer parse and clamped; page size up to 100.",
    ...runs("read-only", ["partnerKey"], 2),
    deviation: "no_limit_clamp",
    async run({ http, partnerKey }) {
      const big = expectSuccess(
        await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { limit: 500 } }),
        "limit=500",
      );
      ensure(Array.isArray(big.data) && big.data.length <= 100, `limit=500 must return at most 100 rows`);
      const pag = (big as { pagination?: { limit?: number } }).pagination;
      ensure(!pag || pag.limit === 100, `pagination.limit must be clamped to 100, got ${pag?.limit}`);
      const lead = expectSuccess(
        await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { limit: "3abc" } }),
        "limit=3abc",
      );
      ensure(
        Array.isArray(lead.data) && lead.data.length <= 3,
        `limit=3abc must read as 3, got ${(lead.data as unknown[]).length} rows`,
      );
    },
  },
  {
    id: "pipeline.identifier-too-long",
    guards:
      "docs/reference/api-rules.md “Other limits” (identifier length 255) and “Error codes” (identifier_too_long)",
    profile: "pipeline",
    title: "Identifiers over 255 characters → 400 identifier_too_long",
    rule: "identifier_too_long: identifier over 255 characters.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "no_identifier_limit",
    async run({ http, partnerKey }) {
      const r = await http.get(`/api/v1/pokemon/cards/${"x".repeat(256)}`, { key: partnerKey });
      expectError(r, 400, "identifier_too_long", "256-character card id");
    },
  },
  {
    id: "pipeline.rate-limited-429",
    guards: "docs/reference/api-rules.md “Error codes” (429 rate_limited)",
    profile: "pipeline",
    title: "Past the per-key ceiling → 429 rate_limited with Retry-After, not charged",
    rule: "429 rate_limited: read Retry-After and X-RateLimit-Reset; not charged.",
    // Emulator mode mints a key with a ceiling of 2; elsewhere the partner key's own window, waited out after.
    ...runs("sandbox", ["partnerKey"], 2),
    waitMs: 61_000,
    deviation: "no_retry_after",
    async run(ctx) {
      const { http, control } = ctx;
      if (!control) return rateLimitedBySandbox(ctx);
      const key = await control!.newKey({ kind: "partner", scopes: ["read:catalog"], rate_limit_per_min: 2 });
      await http.get(PROBE, { key });
      const second = await http.get(PROBE, { key });
      const r = await http.get(PROBE, { key });
      expectError(r, 429, "rate_limited", "third call at 2/min");
      ensure(intHeader(r, "Retry-After", "429") > 0, "Retry-After must be a positive number of seconds");
      intHeader(r, "X-RateLimit-Reset", "429");
      expectNoHeader(r, "X-Credits-Cost", "429");
      await control!.advance(60_000);
      const after = await http.get(PROBE, { key });
      expectSuccess(after, "after the window");
      ensure(
        intHeader(after, "X-Credits-Remaining", "after") === intHeader(second, "X-Credits-Remaining", "second") - 1,
        "the 429 must not have been charged",
      );
    },
  },
  {
    id: "pipeline.insufficient-credits-402",
    guards: "docs/reference/api-rules.md “Credits and billing” (zero balance) and “Error codes” (402)",
    profile: "pipeline",
    title: "An empty balance → 402 insufficient_credits, nothing charged",
    rule: "Zero balance: requests return 402 insufficient_credits until topped up.",
    ...emulatorOnly("operator", "mints a key with a zero credit balance"),
    deviation: "wrong_402_code",
    async run({ http, control }) {
      const key = await control!.newKey({ kind: "partner", scopes: ["read:catalog"], balance: 0 });
      const r = await http.get(PROBE, { key });
      expectError(r, 402, "insufficient_credits", "read with a zero balance");
      ensure(intHeader(r, "X-Credits-Remaining", "402") === 0, "X-Credits-Remaining must stay 0");
    },
  },
  {
    id: "pipeline.legacy-unmetered",
    guards: "docs/reference/api-rules.md “Credits and billing” (X-Credits-Metering: unmetered)",
    profile: "pipeline",
    title: "Legacy keys answer X-Credits-Metering: unmetered",
    rule: "Unmetered legacy keys exist; their responses carry X-Credits-Metering: unmetered, refusals included.",
    ...runs("read-only", ["legacyKey"]),
    deviation: "legacy_metered",
    async run({ http, legacyKey }) {
      ensure(legacyKey, "no legacy key");
      const key = legacyKey;
      const r = await http.get(PROBE, { key });
      expectSuccess(r, "legacy read");
      // Every answer, a refusal on a route the key may not use included (a legacy key has no partner scopes).
      const refused = await http.get("/api/v1/mystery/stats", { key });
      expectStatus(refused, 403, "a legacy key on GET /mystery/stats");
      for (const [what, a] of [
        ["a legacy read", r],
        ["the 403", refused],
      ] as const)
        ensure(
          a.headers["x-credits-metering"] === "unmetered",
          `${what}: X-Credits-Metering must be "unmetered", got ${a.headers["x-credits-metering"]}`,
        );
    },
  },
];

function expectBilled(r: import("../../harness/http.ts").HttpResult) {
  expectSuccess(r, "GET a card");
  return r;
}
