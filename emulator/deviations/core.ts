import { balanceOf } from "../pipeline/metering.ts";
import { isApi, errorIs, toSuccess, type Deviation, type Exchange } from "./deviation.ts";

// Deviations that break the pipeline's and the catalog's rules.

/** Takes `n` extra credits from the caller's account and fixes X-Credits-Remaining to match. */
function overcharge(x: Exchange, n: number): void {
  const key = x.req.headers.get("x-api-key") ?? "";
  const acct = x.services.store.state.credits[key];
  if (!acct || !x.headers.has("X-Credits-Remaining")) return;
  const take = Math.min(n, acct.free + acct.purchased);
  const fromFree = Math.min(acct.free, take);
  acct.free -= fromFree;
  acct.purchased -= take - fromFree;
  x.headers.set("X-Credits-Remaining", String(balanceOf(acct)));
}

export const coreDeviations: readonly Deviation[] = [
  { name: "health_requires_key", breaks: "GET /health needs no key", apply: (x) => {
      if (x.url.pathname === "/api/v1/health") {
        x.status = 401;
        x.body = { success: false, message: "Invalid API key", error: "API key required" };
      }
    } },
  { name: "unknown_path_wrong_code", breaks: "unknown paths are 404 not_found", apply: (x) => {
      if (isApi(x) && errorIs(x, 404, "not_found")) x.body!.error = "route_not_found";
    } },
  { name: "status_401_as_403", breaks: "failed authentication is 401", apply: (x) => {
      if (x.status === 401) x.status = 403;
    } },
  { name: "tenant_reads_catalog", breaks: "wrong key kind is 403", apply: (x) => {
      if (isApi(x) && x.status === 403) toSuccess(x, {});
    } },
  { name: "bare_success_body", breaks: "success bodies use the envelope", apply: (x) => {
      if (isApi(x) && x.body?.success === true) x.body = (x.body.data ?? {}) as import("./deviation.ts").Body;
    } },
  { name: "no_ratelimit_headers", breaks: "X-RateLimit-* on every response", apply: (x) => {
      for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) x.headers.delete(h);
    } },
  { name: "no_credit_headers", breaks: "credit headers on metered responses", apply: (x) => {
      x.headers.delete("X-Credits-Cost");
      x.headers.delete("X-Credits-Remaining");
    } },
  { name: "double_charge", breaks: "1 credit per catalog read", apply: (x) => {
      if (x.status === 200 && x.headers.get("X-Credits-Cost") === "1") overcharge(x, 1);
    } },
  { name: "no_refund_on_404", breaks: "4xx responses are refunded (404)", apply: (x) => {
      if (x.status === 404 && x.headers.get("X-Credits-Cost") === "0") {
        overcharge(x, 1);
        x.headers.set("X-Credits-Cost", "1");
      }
    } },
  { name: "no_refund_on_400", breaks: "4xx responses are refunded (400)", apply: (x) => {
      if (x.status === 400 && x.headers.get("X-Credits-Cost") === "0") {
        overcharge(x, 1);
        x.headers.set("X-Credits-Cost", "1");
      }
    } },
  { name: "lenient_pagination", breaks: "limit/offset with no integer are invalid_pagination", apply: (x) => {
      if (errorIs(x, 400, "invalid_pagination") && (x.url.searchParams.has("limit") || x.url.searchParams.has("offset"))) toSuccess(x, []);
    } },
  { name: "no_limit_clamp", breaks: "limit is clamped to 100", apply: (x) => {
      const asked = Number.parseInt(x.url.searchParams.get("limit") ?? "", 10);
      const pag = x.body?.pagination as { limit?: number } | undefined;
      if (asked > 100 && pag) pag.limit = asked;
    } },
  { name: "no_identifier_limit", breaks: "identifiers over 255 characters are rejected", apply: (x) => {
      if (errorIs(x, 400, "identifier_too_long")) {
        x.status = 404;
        x.body = { success: false, message: "Not found", error: "not_found" };
      }
    } },
  { name: "no_retry_after", breaks: "429 carries Retry-After", apply: (x) => {
      if (x.status === 429) x.headers.delete("Retry-After");
    } },
  { name: "wrong_402_code", breaks: "an empty balance is 402 insufficient_credits", apply: (x) => {
      if (errorIs(x, 402, "insufficient_credits")) x.body!.error = "payment_required";
    } },
  { name: "legacy_metered", breaks: "legacy keys answer X-Credits-Metering: unmetered", apply: (x) => {
      x.headers.delete("X-Credits-Metering");
    } },
  { name: "catalog_no_total_count", breaks: "Card Data pages carry their paging fields", apply: (x) => {
      if (x.body && Array.isArray(x.body.data)) {
        delete x.body.total_count;
        delete x.body.page_size;
        delete x.body.pagination;
      }
    } },
  { name: "include_prices_ignored", breaks: "include=prices embeds pricing", apply: (x) => {
      const strip = (o: unknown) => o && typeof o === "object" && delete (o as Record<string, unknown>).pricing;
      if (x.url.searchParams.get("include")?.includes("prices") && x.body) {
        if (Array.isArray(x.body.data)) x.body.data.forEach(strip);
        else strip(x.body.data);
      }
    } },
  { name: "not_found_wrong_code", breaks: "a missing card is 404 not_found", apply: (x) => {
      if (/\/cards\/[^/]+$/.test(x.url.pathname) && errorIs(x, 404, "not_found")) x.body!.error = "card_not_found";
    } },
  { name: "no_error_position", breaks: "q errors carry details.position", apply: (x) => {
      if (x.status === 400 && x.body) delete x.body.details;
    } },
  { name: "no_query_caps", breaks: "q caps give query_too_complex", apply: (x) => {
      if (errorIs(x, 400, "query_too_complex")) toSuccess(x, []);
    } },
  { name: "page_size_uncapped", breaks: "page_size is at most 100", apply: (x) => {
      if (errorIs(x, 400, "invalid_pagination") && x.url.searchParams.has("page_size")) toSuccess(x, []);
    } },
  { name: "expansion_cards_empty", breaks: "an expansion lists its cards", apply: (x) => {
      if (/\/expansions\/[^/]+\/cards$/.test(x.url.pathname) && x.body?.success) x.body.data = [];
    } },
  { name: "sealed_prices_missing", breaks: "sealed prices carry pricing", apply: (x) => {
      if (/\/sealed\/[^/]+\/prices$/.test(x.url.pathname) && x.body?.success) delete (x.body.data as Record<string, unknown>).pricing;
    } },
  { name: "printings_uncapped", breaks: "printings are capped at 50", apply: (x) => {
      if (x.url.pathname.endsWith("/printings") && Array.isArray(x.body?.data)) {
        const rows = x.body!.data as unknown[];
        x.body!.data = Array.from({ length: 60 }, (_, i) => rows[i % rows.length]);
      }
    } },
  { name: "price_history_charged", breaks: "not-live endpoints cost nothing", apply: (x) => {
      if (x.url.pathname.endsWith("/price-history")) x.headers.set("X-Credits-Cost", "5");
    } },
  { name: "id_array_uncapped", breaks: "id arrays over 500 entries are invalid_pagination", apply: (x) => {
      if (x.url.pathname.endsWith("/grading/certs/batch") && errorIs(x, 400, "invalid_pagination")) toSuccess(x, { results: [] });
    } },
];

