/**
 * The conformance suite as a library (`import … from "cardos-emulator/conformance"`): run the checks
 * against any base URL from your own code or test runner, the same way `npx emulator conformance` does.
 *
 *   const suite = await runSuite(ALL_CHECKS, { baseUrl, partnerKey, profiles: PROFILES, mode: "read-only" });
 *   if (!passed(suite)) console.log(markdownReport(suite));
 */
export { runSuite, passed, type SuiteOptions, type SuiteResult } from "./runner.ts";
export { ALL_CHECKS } from "./registry.ts";
export {
  PROFILES,
  MODES,
  CheckFailure,
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
