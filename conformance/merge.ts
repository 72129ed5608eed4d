import type { SuiteResult } from "./runner.ts";
import type { ShardInfo } from "./shard.ts";
import { usdcMicros, usdcText } from "./assert.ts";

// `conformance merge`: the shards' results (shard.ts) joined into the one run's.

export class MergeError extends Error {}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Joins the shards' results into one run's: refused (MergeError, saying which) unless the reports are
 * shards of the same run — same target, mode, profiles, shard count and checks — each shard present
 * once, and every check of the run reported exactly once.
 */
export function mergeShards(reports: readonly SuiteResult[]): SuiteResult {
  if (reports.length === 0) throw new MergeError("no reports to merge");
  const first = reports[0]!;
  const info = (r: SuiteResult, i: number): ShardInfo => {
    if (!r.shard) throw new MergeError(`report ${i + 1} is not a shard (it was run without --shard)`);
    return r.shard;
  };
  const head = info(first, 0);
  const seen = new Map<number, number>();
  reports.forEach((r, i) => {
    const s = info(r, i);
    const differs = (what: string, a: unknown, b: unknown) =>
      new MergeError(`report ${i + 1} is of another run: its ${what} is ${String(a)}, report 1's is ${String(b)}`);
    if (r.target !== first.target) throw differs("target", r.target, first.target);
    if (r.mode !== first.mode) throw differs("mode", r.mode, first.mode);
    if (!same(r.profiles, first.profiles)) throw differs("profiles", r.profiles, first.profiles);
    if (s.count !== head.count) throw differs("shard count", s.count, head.count);
    if (!same(s.checks, head.checks)) throw differs("list of checks", `${s.checks.length} checks`, "another list");
    if (seen.has(s.index))
      throw new MergeError(
        `shard ${s.index}/${s.count} is given twice (reports ${seen.get(s.index)! + 1} and ${i + 1})`,
      );
    seen.set(s.index, i);
  });
  const missing = Array.from({ length: head.count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length)
    throw new MergeError(
      `shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${head.count}`).join(", ")} missing`,
    );
  const byId = new Map<string, SuiteResult["results"][number]>();
  for (const r of reports)
    for (const result of r.results) {
      if (byId.has(result.id)) throw new MergeError(`check ${result.id} is reported by two shards`);
      if (!head.checks.includes(result.id)) throw new MergeError(`check ${result.id} is not a check of this run`);
      byId.set(result.id, result);
    }
  // A shard stopped early (--bail) reports fewer checks: the merged run is as incomplete as it was.
  const results = head.checks.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
  const times = (k: "started_at" | "finished_at") => reports.map((r) => r[k]).sort();
  const merged: SuiteResult = {
    ...(first.title ? { title: first.title } : {}),
    target: first.target,
    mode: first.mode,
    profiles: [...first.profiles],
    started_at: times("started_at")[0]!,
    finished_at: times("finished_at").at(-1)!,
    results,
  };
  if (first.rule_coverage) merged.rule_coverage = first.rule_coverage;
  const kinds = [...new Set(reports.flatMap((r) => r.key_kinds ?? []))].sort();
  if (kinds.length) merged.key_kinds = kinds;
  const spent = reports.map((r) => r.spent).filter((s) => s !== undefined);
  if (spent.length)
    merged.spent = {
      credits: spent.reduce((n, s) => n + s.credits, 0),
      max_credits: spent[0]!.max_credits === null ? null : spent.reduce((n, s) => n + (s.max_credits ?? 0), 0),
      // A report's figures are decimals of exact micros: summed as micros, not as floats.
      usdc: sumUsdc(spent.map((s) => s.usdc)),
      max_spend_usdc: spent[0]!.max_spend_usdc === null ? null : sumUsdc(spent.map((s) => s.max_spend_usdc ?? 0)),
    };
  const changes = reports.map((r) => r.changes).filter((c) => c !== undefined);
  if (changes.length) merged.changes = mergeChanges(changes);
  return merged;
}

function mergeChanges(all: NonNullable<SuiteResult["changes"]>[]): NonNullable<SuiteResult["changes"]> {
  const writes: Record<string, number> = {};
  for (const c of all) for (const [op, n] of Object.entries(c.writes)) writes[op] = (writes[op] ?? 0) + n;
  const emu = all.map((c) => c.emulator).filter((e) => e !== undefined);
  return {
    writes,
    ...(emu.length
      ? {
          emulator: {
            clock_moved_ms: emu.reduce((n, e) => n + e.clock_moved_ms, 0),
            keys_added: emu.reduce((n, e) => n + e.keys_added, 0),
            restored: emu.every((e) => e.restored),
          },
        }
      : {}),
  };
}

/** Sums a report's USDC figures as integer micros (each is the decimal text of exact micros). */
const sumUsdc = (figures: readonly number[]): number =>
  Number(usdcText(figures.reduce((n, f) => n + usdcMicros(String(f)), 0n)));
