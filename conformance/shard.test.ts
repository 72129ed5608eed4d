import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { fetchVia } from "../test/helpers.ts";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite, passed, type SuiteResult } from "./runner.ts";
import { parseShard, shardChecks } from "./shard.ts";
import { mergeShards, MergeError } from "./merge.ts";
import { certificationBundle, certified, verifyBundle } from "./certify.ts";
import { runConformanceCli } from "./cli.ts";
import { UsageError } from "../harness/cli-args.ts";
import type { Profile } from "./types.ts";

// `--shard i/n` and `conformance merge`: four shards joined give the verdict, the results and a
// certification bundle that verifies, as one run does.

// Profiles that need no chain, so the run certifies (every check passes) without one.
const PROFILES_HERE: Profile[] = ["pipeline", "catalog", "vision", "warehouse"];
const outcomes = (s: SuiteResult) => s.results.map((r) => [r.id, r.outcome]);

describe("parseShard and shardChecks", () => {
  it("parses i/n and refuses what is not a share", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    for (const bad of ["0/4", "5/4", "1/0", "2", "a/b", "1/257", "-1/2", "1/4/2"])
      expect(typeof parseShard(bad), bad).toBe("string");
  });

  it("every check lands in exactly one shard, whatever n", () => {
    for (const n of [1, 2, 3, 4, 7, ALL_CHECKS.length + 3]) {
      const ids = Array.from({ length: n }, (_, i) => shardChecks(ALL_CHECKS, { index: i + 1, count: n }))
        .flat()
        .map((c) => c.id)
        .sort();
      expect(ids, `n=${n}`).toEqual(ALL_CHECKS.map((c) => c.id).sort());
    }
  });
});

describe("shards of one run against an emulator, merged", () => {
  let emu: Emulator;
  let whole: SuiteResult;
  let shards: SuiteResult[];
  beforeAll(async () => {
    emu = await createEmulator({ seed: 1, clock: "manual", chain: false });
    const fetch = fetchVia(emu);
    const base = { baseUrl: emu.url, profiles: PROFILES_HERE, mode: "emulator" as const, fetch };
    whole = await runSuite(ALL_CHECKS, base);
    shards = [];
    for (const index of [3, 1, 4, 2]) shards.push(await runSuite(ALL_CHECKS, { ...base, shard: { index, count: 4 } }));
  }, 300_000);
  afterAll(() => emu?.close());

  it("each shard runs its share and names the whole run's checks", () => {
    expect(shards.map((s) => s.results.length).reduce((a, b) => a + b, 0)).toBe(whole.results.length);
    for (const s of shards) expect(s.shard!.checks).toEqual(whole.results.map((r) => r.id));
  });

  it("merged, they give the one run's verdict, results in its order, and a bundle that verifies", async () => {
    const merged = mergeShards(shards);
    expect(outcomes(merged)).toEqual(outcomes(whole));
    expect(passed(merged)).toBe(passed(whole));
    expect(merged.key_kinds).toEqual(whole.key_kinds);
    expect(merged.spent!.credits).toBe(whole.spent!.credits);
    expect(certified(whole)).toBe(true);
    expect(certified(merged)).toBe(true);
    const a = certificationBundle(merged, merged.key_kinds!, certified(merged));
    const b = certificationBundle(whole, whole.key_kinds!, certified(whole));
    expect(await verifyBundle(a)).toEqual({ ok: true, problems: [] });
    const comparable = (x: typeof a) => ({
      ...x,
      sha256: "",
      started_at: "",
      finished_at: "",
      results: x.results.map((r) => ({ id: r.id, outcome: r.outcome, message: r.message })),
    });
    expect(comparable(a)).toEqual(comparable(b));
  });

  it("refuses a set that is not one whole run, saying which", () => {
    const refused = (set: SuiteResult[]) => {
      try {
        mergeShards(set);
        return "merged";
      } catch (err) {
        expect(err).toBeInstanceOf(MergeError);
        return (err as Error).message;
      }
    };
    expect(refused(shards.slice(1))).toMatch(/shard 3\/4 missing/);
    expect(refused([...shards, shards[0]!])).toMatch(/shard 3\/4 is given twice/);
    expect(refused([whole])).toMatch(/not a shard/);
    const broken = {
      ...shards[1]!,
      results: shards[1]!.results.map((r, i) => (i ? r : { ...r, outcome: "fail" as const })),
    };
    const failing = mergeShards([shards[0]!, broken, ...shards.slice(2)]);
    expect(passed(failing)).toBe(false);
    expect(certified(failing)).toBe(false);
    expect(refused([{ ...shards[0]!, target: "http://elsewhere" }, ...shards.slice(1)])).toMatch(
      /another run: its target/,
    );
    expect(refused([{ ...shards[0]!, profiles: ["catalog"] }, ...shards.slice(1)])).toMatch(/profiles/);
  });

  it("conformance merge: files in, the merged report and bundle out; a bad set is a usage error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-"));
    try {
      const files = shards.map((s, i) => {
        const f = join(dir, `shard-${i}.json`);
        writeFileSync(f, JSON.stringify(s));
        return f;
      });
      const out = join(dir, "merged.json");
      const bundle = join(dir, "bundle.json");
      const code = await runConformanceCli([
        "merge",
        ...files,
        "--report",
        `json=${out}`,
        "--certify",
        "--bundle",
        bundle,
      ]);
      const merged = JSON.parse(readFileSync(out, "utf8")) as SuiteResult;
      expect(outcomes(merged)).toEqual(outcomes(whole));
      const written = JSON.parse(readFileSync(bundle, "utf8"));
      expect(await verifyBundle(written)).toEqual({ ok: true, problems: [] });
      expect(written.passed).toBe(true);
      expect(code).toBe(written.passed ? 0 : 1);
      await expect(runConformanceCli(["merge", files[0]!])).rejects.toThrow(UsageError);
      await expect(runConformanceCli(["merge", join(dir, "absent.json")])).rejects.toThrow(/absent\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
