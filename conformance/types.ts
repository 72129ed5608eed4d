import type { HttpClient, ControlClient } from "../harness/http.ts";
import type { TestWallet } from "../harness/wallet.ts";
import type { ReceiverOptions } from "../harness/webhook-receiver.ts";

/** Areas of the contract; `--profile` selects them. */
export const PROFILES = ["pipeline", "catalog", "credits", "x402", "vision", "webhooks", "mystery", "warehouse"] as const;
export type Profile = (typeof PROFILES)[number];

/**
 * What a check may do to the target, weakest first:
 * read-only: GETs and refunded errors only (safe against production, within --max-credits);
 * sandbox: writes allowed; emulator: uses the /_emulator control plane.
 */
export const MODES = ["read-only", "sandbox", "emulator"] as const;
export type Mode = (typeof MODES)[number];

/** `wallet`: a funded test wallet on the target's chain (sandbox: --wallet-key/--rpc-url; emulator: a fixture account). */
export type Need = "partnerKey" | "tenantKey" | "wallet";

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
  needs: readonly Need[];
  /** Upper bound of credits the check may spend (billed, not refunded). */
  credits: number;
  /** Upper bound of test USDC the check spends from the wallet (commerce checks; against --max-spend-usdc). */
  spendUsdc?: number;
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

export interface CheckContext {
  http: HttpClient;
  /** Partner key for this check (in emulator mode a fresh key, so credit arithmetic is isolated). */
  partnerKey: string;
  tenantKey: string;
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
export const runs = (mode: Mode, needs: readonly Need[] = [], credits = 0): Pick<Check, "mode" | "needs" | "credits"> => ({ mode, needs, credits });
