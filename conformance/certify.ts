import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SuiteResult } from "./runner.ts";

// A certification bundle: what ran, against what, with which kind of key (never
// the key), every result, and a sha256 over all of it so it can't be edited
// unnoticed.

export interface CertificationBundle {
  format: "cardos-conformance-certification";
  suite_version: string;
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

export function certificationBundle(suite: SuiteResult, keyKinds: string[], passed: boolean): CertificationBundle {
  const body = {
    format: "cardos-conformance-certification" as const,
    suite_version: suiteVersion(),
    target_url: suite.target,
    key_kinds: keyKinds,
    mode: suite.mode,
    profiles: suite.profiles,
    started_at: suite.started_at,
    finished_at: suite.finished_at,
    passed,
    results: suite.results,
  };
  return { ...body, sha256: createHash("sha256").update(canonical(body)).digest("hex") };
}

/** True when the bundle's digest matches its content. */
export function verifyBundle(bundle: CertificationBundle): boolean {
  const { sha256, ...body } = bundle;
  return createHash("sha256").update(canonical(body)).digest("hex") === sha256;
}
