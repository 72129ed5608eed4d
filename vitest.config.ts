import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import type { TestSequencer, TestSpecification } from "vitest/node";

// Two projects: `quick` (no chain, no browser, no child processes; `npm run test:quick`, the inner
// loop) and `slow` (the rest). `npm test` runs both; test/test-split.test.ts keeps files that start
// a chain, a browser or a child process out of `quick`.
export const SLOW = [
  "conformance/**/*.test.ts",
  "scenarios/**/*.test.ts",
  "test/chain/**/*.test.ts",
  // Builds the large catalog (seconds of CPU each): its determinism and size.
  "test/fixtures-catalog/large.test.ts",
  "test/mystery/**/*.test.ts",
  "test/instant/**/*.test.ts",
  "test/credits/**/*.test.ts",
  "test/state/**/*.test.ts",
  "test/http/chain-control.test.ts",
  "test/http/idempotency-concurrency.test.ts",
  "test/http/operator-views.test.ts",
  "test/http/parallel-chain-control.test.ts",
  "test/http/hostile-ids.test.ts",
  "test/http/listeners.test.ts",
  "test/webhooks/self-delivery.test.ts",
  "test/http/keys-never-returned.test.ts",
  "test/http/robustness.test.ts",
  "test/ui/dashboard.test.ts",
  "test/ui/shadow-dashboard.test.ts",
  "test/ui/world-reveals.test.ts",
  // Runs tsc over the dashboard's script.
  "test/ui/dashboard-types.test.ts",
  "test/cli.test.ts",
  "test/cli-exec.test.ts",
  "test/lint.test.ts",
  "test/package.test.ts",
  "test/package-types.test.ts",
  "test/openapi.test.ts",
  "test/openapi-client.test.ts",
  "test/readme-sdk.test.ts",
  "test/shadow/cli.test.ts",
  "test/webhooks/chaos.test.ts",
  "test/world/world.test.ts",
  "test/world/reveals.test.ts",
  "test/world/cli.test.ts",
];
export const QUICK_INCLUDE = ["test/**/*.test.ts", "scenarios/**/*.test.ts", "conformance/**/*.test.ts"];

/**
 * Started first, longest first: the files whose own work (children, tools, chains) takes longest, by the CPU
 * measured per file in docs/benchmarks.md ("Issue 38 goal 6", 2026-11-29). Two workers finish together only when no long file starts last; a
 * clean clone (CI) has no timing cache, and vitest's default then runs the quick project first and the larger
 * files first (the 47-line lint test, ~45 s of CPU, came near the end).
 */
export const LONGEST_FIRST = [
  // Packs first: its build and pack hold the checkout lock (test/checkout-lock.ts) a few seconds, which the
  // lint test's knip then takes, rather than the pack waiting for knip.
  "test/package.test.ts",
  "test/cli-exec.test.ts",
  "test/lint.test.ts",
  "conformance/used-target.test.ts",
  "conformance/invariants.test.ts",
  "conformance/suite.test.ts",
  "test/cli.test.ts",
  "test/state/output-files.test.ts",
  "conformance/sandbox.test.ts",
  "test/http/robustness.test.ts",
  "conformance/receiver/receiver-check.test.ts",
  "test/state/write-through.test.ts",
  "test/instant/money-property.test.ts",
  "test/state/chain-kill.test.ts",
  "conformance/remote.test.ts",
  "test/shadow/cli.test.ts",
  "test/openapi.test.ts",
  "test/openapi-client.test.ts",
  "test/fixtures-catalog/large.test.ts",
  "test/ui/dashboard.test.ts",
];

const ROOT = fileURLToPath(new URL(".", import.meta.url));

/** LONGEST_FIRST, then the rest as vitest orders a run without a cache: project by project, larger files first. */
class LongestFirst implements TestSequencer {
  shard(): never {
    throw new Error("--shard is not supported by this project's sequencer (vitest.config.ts)");
  }

  sort(files: TestSpecification[]): TestSpecification[] {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(ROOT, f.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    const size = (f: TestSpecification) => statSync(f.moduleId).size;
    return [...files].sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        size(b) - size(a),
    );
  }
}

// The official SDK, vendored for the README's SDK snippets (test/vendor/cardos-sdk/README.md), under its real name.
const SDK = fileURLToPath(new URL("./test/vendor/cardos-sdk/src/", import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@ripdotfun\/cardos-sdk$/, replacement: `${SDK}index.ts` },
      { find: /^@ripdotfun\/cardos-sdk\/webhooks$/, replacement: `${SDK}webhooks.ts` },
    ],
  },
  test: {
    // Hang detectors, not budgets: a loaded machine must not fail a test (see docs/decisions.md).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll waits for a page's or a server's own signal; its 1 s default is a budget a loaded machine
    // misses (the dashboard's chaos test failed so in CI): a hang detector here too.
    expect: { poll: { timeout: 30_000 } },
    sequence: { sequencer: LongestFirst },
    pool: "forks",
    // One module graph per worker instead of one per file: the emulator's imports cost ~1 s per file.
    isolate: false,
    // vitest's default (cores - 1) is a single worker on 2 cores; tests wait on sockets and children.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { extends: true, test: { name: "quick", include: QUICK_INCLUDE, exclude: [...configDefaults.exclude, ...SLOW] } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
