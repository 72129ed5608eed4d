import type { HttpClient, ControlClient } from "../harness/http.ts";
import type { TestWallet } from "../harness/wallet.ts";
import type { ReceiverOptions } from "../harness/webhook-receiver.ts";

/** Areas of the contract; `--profile` selects them. */
export const PROFILES = [
  "pipeline",
  "catalog",
  "credits",
  "x402",
  "vision",
  "webhooks",
  "mystery",
  "warehouse",
] as const;
export type Profile = (typeof PROFILES)[number];

/**
 * What a check may do to the target, weakest first:
 * read-only: GETs and refunded errors only (safe against production, within --max-credits);
 * sandbox: writes allowed; emulator: uses the /_emulator control plane.
 */
export const MODES = ["read-only", "sandbox", "emulator"] as const;
export type Mode = (typeof MODES)[number];

/**
 * What a check needs beyond the target: `wallet`, a funded test wallet on the target's chain (sandbox:
 * --wallet-key/--rpc-url; emulator: a fixture account); `revenueShareKey`, a partner key of the TIER billing model
 * (--revenue-share-key; emulator: a fresh one); `webhookUrl`, a receiver the target can reach (--webhook-url/--webhook-port;
 * emulator: loopback); `readOnlyTenantKey`, a tenant key with read:inventory only (--read-only-tenant-key);
 * `legacyKey`, a legacy unmetered catalog key (--legacy-key). Emulator mode mints each key it needs.
 */
export type Need =
  "partnerKey" | "tenantKey" | "wallet" | "revenueShareKey" | "webhookUrl" | "readOnlyTenantKey" | "legacyKey";

/** Why a check runs only against the emulator: what no partner can do to the live sandbox. */
export type EmulatorPower = "clock" | "faults" | "operator";
export const EMULATOR_POWER: Readonly<Record<EmulatorPower, string>> = {
  clock: "moves time past what real time allows",
  faults: "injects a fault",
  operator: "flips an operator switch",
};

export interface Check {
  id: string;
  profile: Profile;
  title: string;
  /** The rule of the interface document the check enforces (quoted or paraphrased). */
  rule: string;
  /**
   * Where that rule is written: `<reference> <section>: <rule>` (e.g. `docs/reference/api-rules.md “Limits”: page_size up
   * to 100`), so a reader can check the check against its source. Optional for new checks.
   */
  guards?: string;
  /** The weakest target mode the check can run in. */
  mode: Mode;
  /**
   * Emulator-mode checks only: the power of the control plane it relies on, and what exactly it does with it
   * (e.g. `{ power: "clock", what: "advances 25 hours to the quote's expiry" }`); reported as the reason it is
   * not applicable elsewhere.
   */
  emulatorOnly?: { power: EmulatorPower; what: string };
  needs: readonly Need[];
  /**
   * What the check needs beyond `needs` outside emulator mode, where the control plane cannot stand in (e.g. the
   * funded wallet that credits a custodial end user with a real deposit instead of the fund control action).
   */
  sandboxNeeds?: readonly Need[];
  /** Upper bound of credits the check may spend (billed, not refunded; against --max-credits). */
  credits: number;
  /** Upper bound of test USDC the check spends from the wallet (commerce checks; against --max-spend-usdc). */
  spendUsdc?: number;
  /** Outside emulator mode, the most real time the check may wait (a reveal, a retry); against --max-wait. */
  waitMs?: number;
  /** Name of the emulator deviation that breaks exactly this rule (harness self-test). */
  deviation: string;
  /**
   * Optional probe of the target, asked only when mode and needs allow the check: the reason the
   * check cannot run there (reported as not applicable), or null to run it.
   */
  applicable?(ctx: ApplicabilityContext): Promise<string | null>;
  run(ctx: CheckContext): Promise<void>;
}

/** What `applicable` may look at: the target, and the control plane in emulator mode. */
export interface ApplicabilityContext {
  http: HttpClient;
  control: ControlClient | null;
}

/** How time passes for the suite's real-time waits (outside emulator mode). */
export interface WaitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface CheckContext {
  http: HttpClient;
  /**
   * The clock of real-time waits: the wall clock by default. The project's own tests hand in the in-process target's
   * clock, so a minute's wait takes none while the suite still never calls the control plane.
   */
  time?: WaitClock;
  /** Partner key for this check (in emulator mode a fresh key, so credit arithmetic is isolated). */
  partnerKey: string;
  tenantKey: string;
  /** A TIER partner key, for checks that need one (`needs: ["revenueShareKey"]`; in emulator mode a fresh one). */
  revenueShareKey?: string;
  /** A tenant key with read:inventory only (`needs: ["readOnlyTenantKey"]`; in emulator mode a fresh one). */
  readOnlyTenantKey?: string;
  /** A legacy unmetered key (`needs: ["legacyKey"]`; in emulator mode a fresh one). */
  legacyKey?: string;
  /** The most real time a wait of this check may take (--max-wait; emulator mode advances the clock instead). */
  maxWaitMs?: number;
  /** Present in emulator mode only. */
  control: ControlClient | null;
  /** The funded test wallet, for checks that need one (`needs: ["wallet"]`). */
  wallet?: TestWallet | null;
  /**
   * How a delivery check starts a receiver the target can reach: loopback in emulator mode, the
   * partner's --webhook-url/--webhook-port in sandbox mode; null: checks read the delivery log instead.
   */
  receiver?: ReceiverOptions | null;
  /** Records a note shown in reports (e.g. what was measured). */
  note(text: string): void;
}

export type Outcome = "pass" | "fail" | "not_applicable" | "expected_failure" | "error";

/** One request a check made, as the target's logs would show it. */
export interface RequestRecord {
  method: string;
  /** Path and query. */
  path: string;
  status: number;
  duration_ms: number;
  /** The target's X-Request-Id for the answer (null when it sent none). */
  request_id: string | null;
}

/** A request and its answer with keys, signatures and secrets removed (kept for failed checks). */
export interface TranscriptEntry {
  method: string;
  path: string;
  request_headers: Record<string, string>;
  request_body: string | null;
  status: number;
  response_headers: Record<string, string>;
  response_body: string;
}

export interface CheckResult {
  id: string;
  profile: Profile;
  title: string;
  rule: string;
  guards?: string;
  outcome: Outcome;
  message: string;
  notes: string[];
  /** Not failures: e.g. fields the target sends that the route's schema does not know. */
  warnings: string[];
  requests: RequestRecord[];
  /** Failed and crashed checks only. */
  transcript?: TranscriptEntry[];
  duration_ms: number;
}

/** Thrown by assertions: the target broke the rule. */
export class CheckFailure extends Error {}

/**
 * Thrown by a check that finds, while running, that the target does not offer what it needs (e.g. a
 * partner key of the other billing model): reported as not applicable, with this message as the reason.
 */
export class NotApplicable extends Error {}

/** A check's footprint on the target: its mode, the keys it needs and the credits it may spend. */
export const runs = (
  mode: Mode,
  needs: readonly Need[] = [],
  credits = 0,
): Pick<Check, "mode" | "needs" | "credits"> => ({ mode, needs, credits });

/** What a check needs in a mode: with the control plane (emulator mode), or without it. */
export const needsIn = (check: Pick<Check, "needs" | "sandboxNeeds">, emulator: boolean): readonly Need[] =>
  emulator ? check.needs : [...check.needs, ...(check.sandboxNeeds ?? [])];

/** The footprint of a check only the emulator can run, with the power it needs and what it does with it. */
export const emulatorOnly = (
  power: EmulatorPower,
  what: string,
  needs: readonly Need[] = [],
  credits = 0,
): Pick<Check, "mode" | "needs" | "credits" | "emulatorOnly"> => ({
  mode: "emulator",
  needs,
  credits,
  emulatorOnly: { power, what },
});
