import { MODES, CheckFailure, type Check, type CheckResult, type Mode, type Profile } from "./types.ts";
import { HttpClient, ControlClient } from "../harness/http.ts";

export interface SuiteOptions {
  baseUrl: string;
  partnerKey?: string;
  tenantKey?: string;
  profiles: readonly Profile[];
  mode: Mode;
  /** read-only mode: skip checks whose billed credits would exceed what is left. */
  maxCredits?: number;
  expectedFailures?: ReadonlySet<string>;
  fetch?: typeof fetch;
  onResult?: (result: CheckResult, index: number, total: number) => void;
  onStart?: (check: Check, index: number, total: number) => void;
}

export interface SuiteResult {
  target: string;
  mode: Mode;
  profiles: Profile[];
  started_at: string;
  finished_at: string;
  results: CheckResult[];
}

const rank = (m: Mode) => MODES.indexOf(m);

/** Runs the selected checks one after another against a target. */
export async function runSuite(checks: readonly Check[], opts: SuiteOptions): Promise<SuiteResult> {
  const http = new HttpClient(opts.baseUrl, opts.fetch);
  const hasControl = opts.mode === "emulator" && (await ControlClient.detect(http));
  const control = hasControl ? new ControlClient(http) : null;
  const selected = checks.filter((c) => opts.profiles.includes(c.profile));
  const results: CheckResult[] = [];
  let budget = opts.maxCredits ?? Infinity;
  const started = new Date().toISOString();

  for (const [i, check] of selected.entries()) {
    opts.onStart?.(check, i, selected.length);
    const notes: string[] = [];
    const t0 = performance.now();
    const base = { id: check.id, profile: check.profile, title: check.title, rule: check.rule, notes };
    let result: CheckResult;
    let why = notApplicable(check, opts, control !== null, budget);
    let probeCrash: string | null = null;
    if (!why && check.applicable) {
      // The target itself decides some applicability (e.g. an emulator started without a chain).
      try {
        why = await check.applicable({ http, control });
      } catch (err) {
        probeCrash = `applicability probe crashed: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    if (why) {
      result = { ...base, outcome: "not_applicable", message: why, duration_ms: 0 };
    } else if (probeCrash) {
      result = { ...base, outcome: "error", message: probeCrash, duration_ms: 0 };
    } else {
      try {
        // In emulator mode each check gets fresh keys, so credit arithmetic and limits are isolated.
        const partnerKey = control ? await control.newKey({ kind: "partner", billing_model: "POOL" }) : (opts.partnerKey ?? "");
        const tenantKey = control ? await control.newKey({ kind: "tenant" }) : (opts.tenantKey ?? "");
        await check.run({ http, partnerKey, tenantKey, control, note: (t) => notes.push(t) });
        result = { ...base, outcome: "pass", message: "", duration_ms: 0 };
      } catch (err) {
        const failed = err instanceof CheckFailure;
        const message = failed ? err.message : `check crashed: ${err instanceof Error ? err.message : String(err)}`;
        result = { ...base, outcome: failed ? "fail" : "error", message, duration_ms: 0 };
      }
      if (opts.mode === "read-only") budget -= check.credits;
    }
    if ((result.outcome === "fail" || result.outcome === "error") && opts.expectedFailures?.has(check.id))
      result = { ...result, outcome: "expected_failure" };
    result.duration_ms = Math.round(performance.now() - t0);
    results.push(result);
    opts.onResult?.(result, i, selected.length);
  }
  return { target: opts.baseUrl, mode: opts.mode, profiles: [...opts.profiles], started_at: started, finished_at: new Date().toISOString(), results };
}

function notApplicable(check: Check, opts: SuiteOptions, hasControl: boolean, budget: number): string | null {
  if (rank(check.mode) > rank(opts.mode)) return `needs a ${check.mode} target (running in ${opts.mode} mode)`;
  if (check.mode === "emulator" && !hasControl) return "needs the emulator's /_emulator control plane, which the target does not answer";
  const inEmulator = opts.mode === "emulator" && hasControl;
  if (check.needs.includes("partnerKey") && !opts.partnerKey && !inEmulator) return "needs --partner-key";
  if (check.needs.includes("tenantKey") && !opts.tenantKey && !inEmulator) return "needs --tenant-key";
  if (opts.mode === "read-only" && check.credits > budget) return `would spend ${check.credits} credits; --max-credits leaves ${budget}`;
  return null;
}

/** Exit code 0 only when every scored check passed (n/a and expected failures are not scored). */
export function passed(suite: SuiteResult): boolean {
  return suite.results.every((r) => r.outcome === "pass" || r.outcome === "not_applicable" || r.outcome === "expected_failure");
}
