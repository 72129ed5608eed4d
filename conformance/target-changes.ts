import { OPERATIONS, operationMatcher } from "../contract/index.ts";
import type { ControlClient } from "../harness/http.ts";
import type { CheckResult } from "./types.ts";

// What a run changed on its target, for the summary: in every mode, the API writes that
// succeeded, by operation; against an emulator, what the control plane shows (the clock, the
// keys) and whether the snapshot taken before the run was restored at its end.

export interface TargetChanges {
  /** Successful (2xx) writes to the API, by operation ("POST /mystery/purchase": 3). */
  writes: Record<string, number>;
  /** Emulator mode: the run's effect as the control plane shows it, and whether it was undone. */
  emulator?: { clock_moved_ms: number; keys_added: number; restored: boolean };
}

/** What the control plane shows of a target's state, before and after a run. */
export interface EmulatorView {
  now_ms: number;
  keys: number;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);
const match = operationMatcher(OPERATIONS);

/** The successful API writes of these results, counted by operation (its method and path template). */
export function writesOf(results: readonly CheckResult[]): Record<string, number> {
  const writes: Record<string, number> = {};
  for (const r of results)
    for (const q of r.requests ?? []) {
      const path = q.path.split("?")[0]!;
      if (READS.has(q.method) || q.status < 200 || q.status > 299 || !path.startsWith("/api/v1/")) continue;
      const op = match(q.method, path);
      const name = `${q.method} ${op ? op.path.replace(/:(\w+)/g, "{$1}") : path.slice("/api/v1".length)}`;
      writes[name] = (writes[name] ?? 0) + 1;
    }
  return writes;
}

export async function emulatorView(control: ControlClient): Promise<EmulatorView> {
  const clock = await control.request<{ now_ms: number }>("GET", "/clock");
  const keys = await control.request<{ keys: unknown[] }>("GET", "/keys");
  return { now_ms: clock.now_ms, keys: keys.keys.length };
}

/** The summary's lines about what the run changed. */
export function changesText(c: TargetChanges): string[] {
  const writes = Object.entries(c.writes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = writes.reduce((n, [, k]) => n + k, 0);
  const lines: string[] = [];
  if (c.emulator) {
    const { clock_moved_ms, keys_added, restored } = c.emulator;
    const clock = clock_moved_ms === 0 ? "left the clock as it was" : `moved the clock ${duration(clock_moved_ms)}`;
    const effect = `${clock}, added ${keys_added} key${keys_added === 1 ? "" : "s"} and made ${total} API write${total === 1 ? "" : "s"}`;
    lines.push(
      restored
        ? `Target left as found: the run ${effect}; the snapshot taken before it was restored (--keep-state keeps them).`
        : `Target changed (--keep-state): the run ${effect}.`,
    );
  } else lines.push(`Changed on the target: ${total} API write${total === 1 ? "" : "s"}${total ? ":" : "."}`);
  if (!c.emulator || !c.emulator.restored) for (const [op, n] of writes) lines.push(`  ${op} ×${n}`);
  return lines;
}

/** A span of virtual time for people: "+5 weeks 2 days", "+3 min", "not". */
function duration(ms: number): string {
  const units: Array<[string, number]> = [
    ["week", 7 * 86_400_000],
    ["day", 86_400_000],
    ["h", 3_600_000],
    ["min", 60_000],
    ["s", 1_000],
  ];
  const parts: string[] = [];
  let rest = Math.abs(ms);
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    if (n === 0 || parts.length === 2) continue;
    rest -= n * size;
    parts.push(name.length > 3 ? `${n} ${name}${n === 1 ? "" : "s"}` : `${n} ${name}`);
  }
  return `${ms < 0 ? "−" : "+"}${parts.join(" ") || `${Math.abs(ms)} ms`}`;
}
