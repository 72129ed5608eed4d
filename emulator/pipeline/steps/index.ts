import type { Step } from "./context.ts";
import { publicRoute } from "./public-route.ts";
import { ipBudget } from "./ip-budget.ts";
import { authentication } from "./authentication.ts";
import { surfaceBudget } from "./surface-budget.ts";
import { authorization } from "./authorization.ts";
import { stub } from "./stub.ts";
import { freshBudget } from "./fresh-budget.ts";
import { concurrencyGate } from "./concurrency-gate.ts";
import { metering } from "./metering.ts";
import { faults } from "./faults.ts";
import { input } from "./input.ts";
import { replay } from "./replay.ts";
import { cachedAnswer } from "./cached-answer.ts";
import { reconcile } from "./reconcile.ts";
import { handler } from "./handler.ts";
import { integrationIssue } from "./integration-issue.ts";
import { refund } from "./refund.ts";
import { answer } from "./answer.ts";

export type { PipelineInput, Step } from "./context.ts";

// The order of the request pipeline, in one place; docs/architecture.md “Request flow” shows this
// block verbatim (test/pipeline-steps.test.ts). A step that answers or throws skips the rest but the
// last three, which run on every request whose route they apply to; each route runs only the steps it
// needs (its plan, pipeline/plan.ts, decided once from what the route declares).
// prettier-ignore
export const STEPS: readonly Step[] = Object.freeze([
  publicRoute,      // health: answered at once, uncounted, X-RateLimit-* of the caller's window
  ipBudget,         // 429 rate_limited: the per-IP window
  authentication,   // 401: X-API-Key
  surfaceBudget,    // 429 rate_limited: the key's window on the route's surface
  authorization,    // 403: kind and scopes (AccessRule)
  stub,             // a stub of the operation answers as told, unbilled (POST /_emulator/stubs)
  freshBudget,      // 429 rate_limited: fresh=true on a cached read, 10 per minute per key
  concurrencyGate,  // 503 overloaded: the route's gate
  metering,         // 402 insufficient_credits: the cost taken up front
  faults,           // an injected fault's latency and error (POST /_emulator/faults)
  input,            // 400: a required Idempotency-Key, then params (ids ≤ 255 first), query and body by the schema
  replay,           // a recorded read (--replay) answers as recorded
  cachedAnswer,     // a cached read's answer, unless fresh=true
  reconcile,        // the barrier: the chain's news settled by the reconciler before the handler reads
  handler,          // the route's handler (its answer checked with validateResponses)
  integrationIssue, // always: a warehouse 500 opens an integration issue
  refund,           // always: 2xx/304 billed, any 4xx/5xx refunded
  answer,           // always: the envelope, with the rate-limit window in force
]);
