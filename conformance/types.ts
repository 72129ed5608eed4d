import type { HttpClient, ControlClient } from "../harness/http.ts";

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

export type Need = "partnerKey" | "tenantKey";

export interface Check {
  id: string;
  profile: Profile;
  title: string;
  /** The rule of the interface document the check enforces (quoted or paraphrased). */
  rule: string;
  /** The weakest target mode the check can run in. */
  mode: Mode;
  needs: readonly Need[];
  /** Upper bound of credits the check may spend (billed, not refunded). */
  credits: number;
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
  /** Records a note shown in reports (e.g. what was measured). */
  note(text: string): void;
}

export type Outcome = "pass" | "fail" | "not_applicable" | "expected_failure" | "error";

export interface CheckResult {
  id: string;
  profile: Profile;
  title: string;
  rule: string;
  outcome: Outcome;
  message: string;
  notes: string[];
  duration_ms: number;
}

/** Thrown by assertions: the target broke the rule. */
export class CheckFailure extends Error {}
