import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SuiteResult } from "./runner.ts";

// A certification bundle: what ran (the suite's version and a digest of the
// checks' source), against what, with which kind of key (never the key), every
// result with every request it made (method, path, status, timing and the
// target's X-Request-Id), a redacted transcript of each failure, and a sha256
// over all of it.
//
// The sha256 catches edits, not forgery (anyone can recompute it). What makes
// a bundle verifiable by the service is that it can hold it against what it
// knows independently: the digest of the checks it publishes for a suite
// version, and its own request logs, in which every request of the bundle must
// appear under its X-Request-Id with the same method, path and status.
// `verifyBundle` does both.

export const BUNDLE_FORMAT = "cardos-conformance-certification";

export interface CertificationBundle {
  format: typeof BUNDLE_FORMAT;
  suite_version: string;
  /** sha256 over the checks' source (`checks_files`, in order, each as "path\0content\0"). */
  checks_digest: string;
  checks_files: string[];
  target_url: string;
  key_kinds: string[];
  mode: string;
  profiles: string[];
  started_at: string;
  finished_at: string;
  passed: boolean;
  results: SuiteResult["results"];
  sha256: string;
}

/** The package version (found by walking up: this module also runs from dist/). */
export function suiteVersion(): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** The files whose content decides what a check accepts: the checks and the shared validation they run under. */
function checkSources(): string[] {
  const here = import.meta.dirname;
  const src = (f: string) => /\.(ts|js)$/.test(f) && !/\.test\.|\.d\.ts$/.test(f);
  const checks = readdirSync(join(here, "checks"))
    .filter(src)
    .map((f) => `checks/${f}`);
  const shared = readdirSync(here).filter((f) => src(f) && /^(wire|paging|assert|runner|redact|wait)\./.test(f));
  return [...checks, ...shared].sort();
}

/** sha256 of the checks' source as this copy of the suite has it, and the files it covers. */
export function checksDigest(): { sha256: string; files: string[] } {
  const here = import.meta.dirname;
  const files = checkSources();
  const h = createHash("sha256");
  for (const f of files)
    h.update(f)
      .update("\0")
      .update(readFileSync(join(here, f)))
      .update("\0");
  return { sha256: h.digest("hex"), files };
}

/** Canonical JSON: keys sorted at every level, so the digest is stable. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

const digestOf = (body: Omit<CertificationBundle, "sha256">) =>
  createHash("sha256").update(canonical(body)).digest("hex");

/** A certification run's verdict: every check of the chosen profiles ran and passed (no skip, no expected failure). */
export const certified = (suite: SuiteResult): boolean =>
  suite.results.length > 0 && suite.results.every((r) => r.outcome === "pass");

export function certificationBundle(suite: SuiteResult, keyKinds: string[], passed: boolean): CertificationBundle {
  const checks = checksDigest();
  const body = {
    format: BUNDLE_FORMAT,
    suite_version: suiteVersion(),
    checks_digest: checks.sha256,
    checks_files: checks.files,
    target_url: suite.target,
    key_kinds: keyKinds,
    mode: suite.mode,
    profiles: suite.profiles,
    started_at: suite.started_at,
    finished_at: suite.finished_at,
    passed,
    results: suite.results,
  } satisfies Omit<CertificationBundle, "sha256">;
  return { ...body, sha256: digestOf(body) };
}

/** A request as the service's own logs have it. */
export interface LoggedRequest {
  method: string;
  /** Path, with or without the query (compared without it). */
  path: string;
  status: number;
}

export interface VerifyOptions {
  /** The checks digest the service publishes for this suite version (e.g. from `npx emulator conformance --checks-digest`). */
  checksDigest?: string;
  suiteVersion?: string;
  /** The service's request log by X-Request-Id; undefined when it has no such request. */
  lookup?: (requestId: string) => LoggedRequest | undefined | Promise<LoggedRequest | undefined>;
}

export interface BundleVerification {
  ok: boolean;
  problems: string[];
}

const pathOnly = (p: string) => p.split("?")[0]!;

/**
 * Verifies a bundle: its digest, that its verdict follows from its results, and (when given) that
 * it was made by the published checks and that every request it lists is in the service's logs.
 */
export async function verifyBundle(bundle: CertificationBundle, opts: VerifyOptions = {}): Promise<BundleVerification> {
  const problems: string[] = [];
  const { sha256, ...body } = bundle;
  if (bundle.format !== BUNDLE_FORMAT)
    problems.push(`format is ${JSON.stringify(bundle.format)}, not ${BUNDLE_FORMAT}`);
  if (digestOf(body) !== sha256)
    problems.push("sha256 does not match the content: the bundle was edited after it was written");
  const results = Array.isArray(bundle.results) ? bundle.results : [];
  const allPass = results.length > 0 && results.every((r) => r.outcome === "pass");
  if (bundle.passed && !allPass)
    problems.push(
      "passed is true, but not every check passed (certification allows no failure, skip or expected failure)",
    );
  if (opts.suiteVersion !== undefined && bundle.suite_version !== opts.suiteVersion)
    problems.push(`suite_version is ${bundle.suite_version}, expected ${opts.suiteVersion}`);
  if (opts.checksDigest !== undefined && bundle.checks_digest !== opts.checksDigest)
    problems.push(
      `checks_digest ${bundle.checks_digest} is not the published digest ${opts.checksDigest}: the checks were changed`,
    );
  const seen = new Map<string, string>();
  for (const r of results) {
    const api = (r.requests ?? []).filter((q) => q.path.startsWith("/api/v1"));
    if (r.outcome === "pass" && api.length === 0 && bundle.mode !== "emulator")
      problems.push(`${r.id}: passed without a request to the API`);
    for (const q of api) {
      if (!q.request_id) {
        problems.push(`${r.id}: ${q.method} ${q.path} has no X-Request-Id to match against the service's logs`);
        continue;
      }
      const dup = seen.get(q.request_id);
      if (dup) problems.push(`${r.id}: X-Request-Id ${q.request_id} is listed twice (also by ${dup})`);
      seen.set(q.request_id, r.id);
      if (!opts.lookup) continue;
      const logged = await opts.lookup(q.request_id);
      if (!logged)
        problems.push(`${r.id}: ${q.method} ${q.path} → ${q.status} (${q.request_id}) is not in the service's logs`);
      else if (logged.method !== q.method || pathOnly(logged.path) !== pathOnly(q.path) || logged.status !== q.status)
        problems.push(
          `${r.id}: ${q.request_id} is logged as ${logged.method} ${pathOnly(logged.path)} → ${logged.status}, the bundle says ${q.method} ${pathOnly(q.path)} → ${q.status}`,
        );
    }
  }
  return { ok: problems.length === 0, problems };
}
