/**
 * The conformance suite as a library (`import … from "cardos-emulator/conformance"`): run the checks
 * against any base URL from your own code or test runner, the same way `npx emulator conformance` does.
 *
 *   // one test case per check, in vitest (jest: `test(c.name, () => c.run())`)
 *   for (const c of conformanceChecks({ target: { baseUrl, partnerKey }, mode: "sandbox" })) it(c.name, (t) => c.run(t));
 *
 *   // or the whole suite at once
 *   const suite = await runSuite(ALL_CHECKS, { baseUrl, partnerKey, profiles: PROFILES, mode: "read-only" });
 *   if (!passed(suite)) console.log(markdownReport(suite));
 */
export {
  conformanceChecks,
  ConformanceFailure,
  type ConformanceOptions,
  type ConformanceTarget,
  type ConformanceCase,
  type CaseContext,
} from "./library.ts";
export {
  runSuite,
  runCheck,
  openSession,
  passed,
  type SuiteOptions,
  type SuiteResult,
  type TargetSession,
} from "./runner.ts";
export { ALL_CHECKS } from "./registry.ts";
export { parseShard, shardChecks, type Shard, type ShardInfo } from "./shard.ts";
export { mergeShards, MergeError } from "./merge.ts";
export type { TargetChanges } from "./target-changes.ts";
export {
  PROFILES,
  MODES,
  CheckFailure,
  NotApplicable,
  type Profile,
  type Mode,
  type Need,
  type Check,
  type CheckContext,
  type ApplicabilityContext,
  type CheckResult,
  type RequestRecord,
  type TranscriptEntry,
  type Outcome,
} from "./types.ts";
export { junit as junitReport, json as jsonReport, markdown as markdownReport } from "./reporters/files.ts";
export { html as htmlReport } from "./reporters/html.ts";
export {
  certificationBundle,
  verifyBundle,
  checksDigest,
  suiteVersion,
  type CertificationBundle,
  type BundleVerification,
  type VerifyOptions,
  type LoggedRequest,
} from "./certify.ts";
export { checkReceiver, type ReceiverCheckOptions } from "./receiver/run.ts";
export { RECEIVER_CASES, type ReceiverCase } from "./receiver/cases.ts";
