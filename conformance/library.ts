import { ALL_CHECKS } from "./registry.ts";
import { openSession, runCheck, type SuiteOptions, type TargetSession } from "./runner.ts";
import { HttpClient, ControlClient } from "../harness/http.ts";
import { PROFILES, type Check, type CheckResult, type Mode, type Profile } from "./types.ts";

// The suite as test cases for the user's own runner (vitest, jest, node:test):
// one case per check, each running that check against the target with the same
// modes, profiles, body validation and applicability as `npx emulator
// conformance`. The target may be given late (a function), for a server that
// starts in a beforeAll.

export interface ConformanceTarget {
  baseUrl: string;
  partnerKey?: string;
  tenantKey?: string;
  fetch?: typeof fetch;
}

export interface ConformanceOptions {
  /** The target, or a function giving it when the first case runs. */
  target: ConformanceTarget | (() => ConformanceTarget | Promise<ConformanceTarget>);
  /** Default: every profile. */
  profiles?: readonly Profile[];
  /** Default: `emulator` when the target answers /_emulator, else `read-only`. */
  mode?: Mode;
  /** The credit budget shared by all cases (default: 50 in read-only mode, none otherwise, as the CLI). */
  maxCredits?: number;
  /** Check ids whose failure is not scored: their case passes and says so. */
  expectedFailures?: Iterable<string>;
  /** The checks to offer (default: the whole suite). */
  checks?: readonly Check[];
}

/** What a case may do when its check does not apply (vitest: the test context's `skip`). */
export interface CaseContext {
  skip?: (note?: string) => void;
}

export interface ConformanceCase {
  id: string;
  profile: Profile;
  /** `<id>: <title>`, for the test's name. */
  name: string;
  check: Check;
  /**
   * Runs the check. A failure or a crash throws an Error with the check's message (and the rule);
   * a check that does not apply calls `ctx.skip(reason)` when given, else returns its result.
   */
  run(ctx?: CaseContext): Promise<CheckResult>;
}

/** Thrown by a failing case: the check's message, the rule, and the full result. */
export class ConformanceFailure extends Error {
  constructor(readonly result: CheckResult) {
    super(`${result.message}\n  rule: ${result.rule}${result.guards ? `\n  guards: ${result.guards}` : ""}`);
    this.name = "ConformanceFailure";
  }
}

/**
 * One test case per check of the chosen profiles:
 *
 *   for (const c of conformanceChecks({ target: { baseUrl, partnerKey }, mode: "sandbox" }))
 *     it(c.name, (t) => c.run(t));            // vitest; jest: test(c.name, () => c.run())
 */
export function conformanceChecks(options: ConformanceOptions): ConformanceCase[] {
  const profiles = options.profiles ?? PROFILES;
  const expected = new Set(options.expectedFailures ?? []);
  let session: Promise<TargetSession> | null = null;
  const open = () =>
    (session ??= (async () => {
      const t = typeof options.target === "function" ? await options.target() : options.target;
      const mode =
        options.mode ?? ((await ControlClient.detect(new HttpClient(t.baseUrl, t.fetch))) ? "emulator" : "read-only");
      const opts: SuiteOptions = {
        ...t,
        profiles: [...profiles],
        mode,
        // As the CLI: a budget by default only where credits are real money (read-only against a live service).
        maxCredits: options.maxCredits ?? (mode === "read-only" ? 50 : undefined),
        expectedFailures: expected,
      };
      return openSession(opts);
    })());
  return (options.checks ?? ALL_CHECKS)
    .filter((c) => profiles.includes(c.profile))
    .map((check) => ({
      id: check.id,
      profile: check.profile,
      name: `${check.id}: ${check.title}`,
      check,
      async run(ctx?: CaseContext) {
        const result = await runCheck(check, await open());
        if (result.outcome === "fail" || result.outcome === "error") throw new ConformanceFailure(result);
        if (result.outcome === "not_applicable") ctx?.skip?.(`not applicable: ${result.message}`);
        return result;
      },
    }));
}
