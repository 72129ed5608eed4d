import { balanceOf } from "../../emulator/pipeline/metering.ts";
import { own } from "../../emulator/state/own.ts";
import { isApi, errorIs, toSuccess, dataOf, is, keyOf, type Body, type Deviation, type Exchange } from "./deviation.ts";

// Deviations that break the pipeline's rules (auth, rate limits, metering, envelopes, paging).

/** Takes `n` extra credits from the caller's account and fixes X-Credits-Remaining to match. */
function overcharge(x: Exchange, n: number): void {
  const key = x.req.headers.get("x-api-key") ?? "";
  const acct = own(x.services.store.state.credits, key);
  if (!acct || !x.headers.has("X-Credits-Remaining")) return;
  const take = Math.min(n, acct.free + acct.purchased);
  const fromFree = Math.min(acct.free, take);
  acct.free -= fromFree;
  acct.purchased -= take - fromFree;
  x.headers.set("X-Credits-Remaining", String(balanceOf(acct)));
}

/** A single catalog card's answer (GET /api/v1/{game}/cards/{id}), the one answer the schema deviations reshape. */
const cardAnswer = (x: Exchange) =>
  x.status === 200 && is(x, "GET", /^\/api\/v1\/[a-z]+\/cards\/[^/]+$/) ? dataOf(x) : null;

/**
 * One deviation per family of response-schema defect, each on one catalog answer and no
 * check of its own: the conformance suite's body validation (conformance/wire.ts) must
 * kill them (suite.test.ts). Named `schema_*`.
 */
export const schemaDeviations: readonly Deviation[] = [
  {
    name: "schema_field_renamed",
    breaks: "a card's fields are spelled as the schema says (name)",
    apply: (x) => {
      const d = cardAnswer(x);
      if (d && "name" in d) {
        d.card_name = d.name;
        delete d.name;
      }
    },
  },
  {
    name: "schema_required_missing",
    breaks: "a card carries every required field (code)",
    apply: (x) => {
      const d = cardAnswer(x);
      if (d) delete d.code;
    },
  },
  {
    name: "schema_wrong_type",
    breaks: "a card's fields have the schema's types (number is a string)",
    apply: (x) => {
      const d = cardAnswer(x);
      if (d && typeof d.number === "string") d.number = Number.parseInt(d.number, 10) || 0;
    },
  },
  // Drifts of the kind a change inside the emulator makes (issue 22): the contract, not the emulator's own code, must catch them.
  {
    name: "schema_type_changed",
    breaks: "tcgplayer_id is a string of digits or null, as the contract says",
    apply: (x) => {
      const d = cardAnswer(x);
      if (d) d.tcgplayer_id = typeof d.tcgplayer_id === "string" ? Number(d.tcgplayer_id) : 0;
    },
  },
  {
    name: "schema_nullable_missing",
    breaks: "a nullable field is present (null), never left out (tcgplayer_id)",
    apply: (x) => {
      const d = cardAnswer(x);
      if (d) delete d.tcgplayer_id;
    },
  },
  {
    name: "schema_enum_renamed",
    breaks: "enum values are spelled as the contract says (language_code)",
    apply: (x) => {
      const d = cardAnswer(x);
      if (d && typeof d.language_code === "string") d.language_code = d.language_code.toUpperCase();
    },
  },
];

export const pipelineDeviations: readonly Deviation[] = [
  ...schemaDeviations,
  {
    name: "health_requires_key",
    breaks: "GET /health needs no key",
    apply: (x) => {
      if (x.url.pathname === "/api/v1/health") {
        x.status = 401;
        x.body = { success: false, message: "Invalid API key", error: "API key required" };
      }
    },
  },
  {
    name: "content_type_latin1",
    breaks: "answers are JSON in UTF-8 (the charset parameter says latin1)",
    apply: (x) => {
      if (isApi(x)) x.headers.set("Content-Type", "application/json; charset=latin1");
    },
  },
  {
    name: "error_code_undeclared",
    breaks: "an error answers only a code its operation declares (a 409's code respelled)",
    apply: (x) => {
      if (!isApi(x) || x.status !== 409 || !x.body) return;
      if (typeof x.body.code === "string") x.body.code = `${x.body.code}_conflict`;
      else if (typeof x.body.error === "string") x.body.error = `${x.body.error}_conflict`;
    },
  },
  {
    name: "unknown_path_wrong_code",
    breaks: "unknown paths are 404 not_found",
    apply: (x) => {
      if (isApi(x) && errorIs(x, 404, "not_found")) x.body!.error = "route_not_found";
    },
  },
  {
    name: "status_401_as_403",
    breaks: "failed authentication is 401",
    apply: (x) => {
      if (x.status === 401) x.status = 403;
    },
  },
  {
    name: "tenant_reads_catalog",
    breaks: "wrong key kind is 403",
    apply: (x) => {
      if (isApi(x) && x.status === 403) toSuccess(x, {});
    },
  },
  {
    name: "bare_success_body",
    breaks: "success bodies use the envelope",
    apply: (x) => {
      if (isApi(x) && x.body?.success === true) x.body = (x.body.data ?? {}) as Body;
    },
  },
  {
    name: "no_ratelimit_headers",
    breaks: "X-RateLimit-* on every response",
    apply: (x) => {
      for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) x.headers.delete(h);
    },
  },
  {
    name: "no_credit_headers",
    breaks: "credit headers on metered responses",
    apply: (x) => {
      x.headers.delete("X-Credits-Cost");
      x.headers.delete("X-Credits-Remaining");
    },
  },
  {
    name: "double_charge",
    breaks: "1 credit per catalog read",
    apply: (x) => {
      if (x.status === 200 && x.headers.get("X-Credits-Cost") === "1") overcharge(x, 1);
    },
  },
  {
    name: "no_refund_on_404",
    breaks: "4xx responses are refunded (404)",
    apply: (x) => {
      if (x.status === 404 && x.headers.get("X-Credits-Cost") === "0") {
        overcharge(x, 1);
        x.headers.set("X-Credits-Cost", "1");
      }
    },
  },
  {
    name: "no_refund_on_400",
    breaks: "4xx responses are refunded (400)",
    apply: (x) => {
      if (x.status === 400 && x.headers.get("X-Credits-Cost") === "0") {
        overcharge(x, 1);
        x.headers.set("X-Credits-Cost", "1");
      }
    },
  },
  {
    name: "lenient_pagination",
    breaks: "limit/offset with no integer are invalid_pagination",
    apply: (x) => {
      if (
        errorIs(x, 400, "invalid_pagination") &&
        (x.url.searchParams.has("limit") || x.url.searchParams.has("offset"))
      )
        toSuccess(x, []);
    },
  },
  {
    name: "no_limit_clamp",
    breaks: "limit is clamped to 100",
    apply: (x) => {
      const asked = Number.parseInt(x.url.searchParams.get("limit") ?? "", 10);
      const pag = x.body?.pagination as { limit?: number } | undefined;
      if (asked > 100 && pag) pag.limit = asked;
    },
  },
  {
    name: "no_identifier_limit",
    breaks: "identifiers over 255 characters are rejected",
    apply: (x) => {
      if (errorIs(x, 400, "identifier_too_long")) {
        x.status = 404;
        x.body = { success: false, message: "Not found", error: "not_found" };
      }
    },
  },
  {
    name: "no_retry_after",
    breaks: "429 carries Retry-After",
    apply: (x) => {
      if (x.status === 429) x.headers.delete("Retry-After");
    },
  },
  {
    name: "wrong_402_code",
    breaks: "an empty balance is 402 insufficient_credits",
    apply: (x) => {
      if (errorIs(x, 402, "insufficient_credits")) x.body!.error = "payment_required";
    },
  },
  {
    name: "legacy_metered",
    breaks: "legacy keys answer X-Credits-Metering: unmetered",
    apply: (x) => {
      x.headers.delete("X-Credits-Metering");
    },
  },
  {
    name: "ratelimit_remaining_stale",
    breaks: "X-RateLimit-Remaining counts the request it answers",
    apply: (x) => {
      // The count before this request: one more than is left, up to the ceiling.
      const limit = Number(x.headers.get("X-RateLimit-Limit"));
      const remaining = Number(x.headers.get("X-RateLimit-Remaining"));
      if (x.headers.has("X-RateLimit-Remaining") && x.status !== 429)
        x.headers.set("X-RateLimit-Remaining", String(Math.min(limit, remaining + 1)));
    },
  },
  {
    name: "deposit_address_without_wallet_deposit",
    breaks: "the deposit address needs wallet:deposit (not implied by wallet:read)",
    apply: (x) => {
      // A key with wallet:read but not wallet:deposit is given an address, as if wallet:read implied it.
      const key = keyOf(x);
      if (
        x.status === 403 &&
        is(x, "POST", /^\/api\/v1\/wallet\/deposit-address$/) &&
        key?.scopes.includes("wallet:read") &&
        !key.scopes.includes("wallet:deposit")
      )
        toSuccess(x, { address: "0x000000000000000000000000000000000000dEaD", chain: "base" });
    },
  },
];
