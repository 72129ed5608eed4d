import type { Check, CheckContext, EmulatorPower, Profile } from "../types.ts";
import { emulatorOnly, runs } from "../types.ts";
import { SANDBOX_LIFECYCLES } from "./lifecycle-sandbox.ts";
import { rpcMissing } from "./target.ts";
import { REDEMPTION_LIFECYCLES } from "./redemption.ts";
import { INSTANT_LIFECYCLES } from "./instant.ts";
import { PURCHASE_LIFECYCLES } from "./purchases.ts";
import { CheckFailure } from "../types.ts";
import { SCENARIOS } from "../../scenarios/registry.ts";
import { remoteTarget, runScenario } from "../../scenarios/run.ts";
import { ScenarioFailure, type Scenario } from "../../scenarios/types.ts";
import { inSnapshot } from "../isolate.ts";

// Lifecycle checks: each scenario (scenarios/*.ts) run against the target as a
// check. A scenario is a whole flow (purchase → reveal, order → delivery, …)
// driven through the public API and the /_emulator control plane. Those a
// partner can run against the sandbox by itself have a real-time version
// (lifecycle-sandbox.ts); the others say what of the control plane they need.
// Scenarios use the fixture keys by name and change
// state, so each runs between a snapshot and its restore: the checks stay
// independent of each other and of the rest of the suite. They are timed for a
// manual clock, so a realtime target is switched to manual while one runs.

interface LifecycleSpec {
  profile: Profile;
  /** The rule the end of the lifecycle shows (what its deviation breaks). */
  rule: string;
  /** Where the rule is written (see Check.guards). */
  guards?: string;
  deviation: string;
  /** Without a sandbox version (lifecycle-sandbox.ts): the control-plane power the scenario relies on, and what it does. */
  emulatorOnly?: { power: EmulatorPower; what: string };
}

/** One entry per scenario; lifecycle.test.ts requires every scenario to have one. */
export const LIFECYCLE_SPECS: Readonly<Record<string, LifecycleSpec>> = {
  "topup-x402": {
    emulatorOnly: { power: "clock", what: "advances 31 days to show purchased credits outlive the monthly reset" },
    profile: "x402",
    rule: "A paid x402 top-up grants 500 credits per USD once (a replay returns the original result); purchased credits never expire.",
    guards:
      "docs/reference/api-rules.md “Credits endpoints” and “Credits and billing” (500 credits per USD; purchased credits never expire)",
    deviation: "lifecycle_purchased_credits_expire",
  },
  "webhook-retries": {
    profile: "webhooks",
    rule: "A failing receiver is retried on the documented schedule (+30 s, +2 min) until it answers 2xx; the delivery log then shows DELIVERED.",
    guards:
      "docs/reference/api-rules.md “Events”; docs/reference/live-service.md “Webhook delivery and signatures” (retry schedule)",
    deviation: "lifecycle_delivery_never_delivered",
  },
  "mystery-purchase-wallet": {
    profile: "mystery",
    rule: "A non-custodial purchase (prepare → wallet signs → submit) is FULFILLED with its items once VRF reveals it.",
    guards:
      "docs/reference/api-rules.md “States and transitions” (purchase); docs/reference/live-service.md “Purchases” and “Flows”",
    deviation: "lifecycle_purchase_never_fulfilled",
  },
  "mystery-custodial-retry": {
    profile: "mystery",
    rule: "A custodial purchase retried with the same Idempotency-Key returns the original purchase and charges once.",
    guards: "docs/reference/live-service.md “Purchases” and “Idempotency” (Idempotency-Key)",
    deviation: "lifecycle_custodial_retry_new_purchase",
  },
  ...REDEMPTION_LIFECYCLES,
  ...INSTANT_LIFECYCLES,
  ...PURCHASE_LIFECYCLES,
  "mystery-buyback-forwarded": {
    emulatorOnly: {
      power: "operator",
      what: "pins a card's oracle value and advances the 15-minute forwarding retries",
    },
    profile: "mystery",
    rule: "A buyback card held for want of a pool wallet is forwarded to the pool wallet once it is set.",
    guards: "docs/reference/live-service.md “Buyback offers and the pool wallet” (forwarding to the pool wallet)",
    deviation: "lifecycle_pool_wallet_not_used",
  },
  "mystery-buyback-transfer-failed": {
    emulatorOnly: { power: "clock", what: "advances 10 forwarding retries 15 minutes apart (2.5 hours)" },
    profile: "mystery",
    rule: "Without a pool wallet a buyback transfer is held (one event), retried every 15 minutes, and fails terminally after 10 attempts.",
    guards: "docs/reference/api-rules.md “Other limits” (buyback transfer retry every 15 minutes, 10 attempts)",
    deviation: "lifecycle_buyback_default_pool_wallet",
  },
  "mystery-sellback": {
    profile: "mystery",
    rule: "A TIER partner's sell-back (quote → prepare → sign → submit) records the payout that was quoted.",
    guards: "docs/reference/live-service.md “Sell-back” (sell-back)",
    deviation: "lifecycle_sellback_pays_less",
  },
  "mystery-revenue-payout": {
    emulatorOnly: { power: "operator", what: "closes the revenue period and pays the statement" },
    profile: "mystery",
    rule: "A TIER partner's closed revenue period is a PENDING payout statement that reads PAID, with a tx hash, once the operator pays it.",
    guards: "docs/reference/live-service.md “Revenue share” (revenue share)",
    deviation: "lifecycle_payout_never_paid",
  },
  "warehouse-inbound": {
    emulatorOnly: { power: "operator", what: "receives the inbound cards, confirms their identity and prices them" },
    profile: "warehouse",
    rule: "Inbound shipment → received cards → identity → price; an incremental sweep from resume_cursor sees every change.",
    guards: "docs/reference/api-rules.md “States and transitions” and “Raw card”",
    deviation: "lifecycle_sweep_misses_changes",
  },
  "warehouse-order": {
    emulatorOnly: { power: "operator", what: "ships the order and has the carrier deliver it" },
    profile: "warehouse",
    rule: "Quote → commit → label bought (UTC deadlines) → shipped → DELIVERED.",
    guards: "docs/reference/api-rules.md “States and transitions” (order) and “Other limits” (UTC deadlines)",
    deviation: "lifecycle_order_never_delivered",
  },
  "warehouse-order-retry": {
    emulatorOnly: { power: "faults", what: "makes the next label purchase fail" },
    profile: "warehouse",
    rule: "A failed label purchase returns the order to PENDING_PAYMENT with nothing applied; committing again succeeds.",
    guards: "docs/reference/api-rules.md “Other limits” (order commits safe to retry)",
    deviation: "lifecycle_failed_label_holds_cards",
  },
  "warehouse-return": {
    emulatorOnly: { power: "operator", what: "ships the order, has the carrier return it and scans the cards back" },
    profile: "warehouse",
    rule: "A returned package makes the order RETURNED; scanned-back cards are OFFCHAIN and can be ordered again.",
    guards: "docs/reference/api-rules.md “States and transitions” (return)",
    deviation: "lifecycle_return_not_recorded",
  },
  "warehouse-withdrawal": {
    emulatorOnly: { power: "operator", what: "completes the withdrawal" },
    profile: "warehouse",
    rule: "A withdrawal (idempotent on idempotency_key) holds the cards; once completed they leave the vault.",
    guards: "docs/reference/api-rules.md “Other limits” (idempotency_key) and “States and transitions”",
    deviation: "lifecycle_withdrawn_cards_stay",
  },
};

/** Fixture keys by name (demo, tier, tenant, …) as the control plane lists them. */
/** Chain scenarios sign with fixture wallets over JSON-RPC: they need the chain, served at an rpcUrl. */
async function runAsCheck(scenario: Scenario, ctx: CheckContext): Promise<void> {
  const control = ctx.control;
  if (!control) throw new Error("lifecycle checks need the control plane (emulator mode)");
  const target = await remoteTarget(ctx.http, scenario.chain);
  let lastStep = "";
  // Scenarios time their steps on a manual clock (exact retry times); a realtime target is paused meanwhile.
  await inSnapshot(control, async () => {
    try {
      await runScenario(scenario, target, (line) => (lastStep = line.trim()));
    } catch (err) {
      throw err instanceof ScenarioFailure
        ? new CheckFailure(`${err.message}${lastStep ? ` (after step "${lastStep}")` : ""}`)
        : err;
    }
  });
  ctx.note(`scenario ${scenario.name} ran to the end; state restored`);
}

function lifecycleCheck(scenario: Scenario, spec: LifecycleSpec): Check {
  const sandbox = SANDBOX_LIFECYCLES[scenario.name];
  const power = spec.emulatorOnly ?? {
    power: "operator" as const,
    what: "drives the scenario through the control plane",
  };
  return {
    id: `lifecycle.${scenario.name}`,
    profile: spec.profile,
    title: `Lifecycle: ${scenario.title}`,
    rule: spec.rule,
    ...(spec.guards ? { guards: spec.guards } : {}),
    ...(sandbox
      ? {
          ...runs("sandbox", sandbox.needs),
          ...(sandbox.sandboxNeeds ? { sandboxNeeds: sandbox.sandboxNeeds } : {}),
          spendUsdc: sandbox.spendUsdc,
          ...(sandbox.waitMs ? { waitMs: sandbox.waitMs } : {}),
        }
      : emulatorOnly(power.power, power.what)),
    deviation: spec.deviation,
    ...(scenario.chain ? { applicable: rpcMissing } : {}),
    run: (ctx) => (ctx.control || !sandbox ? runAsCheck(scenario, ctx) : sandbox.run(ctx)),
  };
}

export const lifecycleChecks: Check[] = SCENARIOS.filter((s) => LIFECYCLE_SPECS[s.name]).map((s) =>
  lifecycleCheck(s, LIFECYCLE_SPECS[s.name]!),
);
