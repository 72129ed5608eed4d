// Injected faults (POST /_emulator/faults): replace a matching response with an
// error, optionally after a latency on the virtual clock. Applied at the handler
// stage, so metered calls are refunded like any real error.

import { mulberry32 } from "../state/ids.ts";

export interface FaultSpec {
  match: { method?: string; path: string };
  status: number;
  error: string;
  message?: string;
  probability?: number;
  times?: number;
  latency_ms?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  hits: number;
}

export class Faults {
  private list: Fault[] = [];
  private seq = 0;
  /** Seeded PRNG so `probability` is deterministic for a seed. */
  private rand: () => number;

  constructor(private readonly seed: number) {
    this.rand = mulberry32(seed ^ 0x5eed);
  }

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: `fault_${++this.seq}`, hits: 0 };
    this.list.push(fault);
    return fault;
  }

  all(): Fault[] {
    return this.list.map((f) => ({ ...f }));
  }

  /** Also restarts the PRNG (reset calls it): the same faults after a reset draw the same outcomes. */
  clear(): void {
    this.list = [];
    this.seq = 0;
    this.rand = mulberry32(this.seed ^ 0x5eed);
  }

  /** The fault that applies to this request, if any (counts it). */
  take(method: string, path: string): Fault | null {
    for (const f of this.list) {
      if (f.match.method && f.match.method.toUpperCase() !== method.toUpperCase()) continue;
      if (!pathMatches(f.match.path, path)) continue;
      if (f.times !== undefined && f.hits >= f.times) continue;
      if (f.probability !== undefined && this.rand() >= f.probability) continue;
      f.hits++;
      return f;
    }
    return null;
  }
}

/** Exact path, or a pattern with `*` (one segment) and a trailing `**` / `*` for any rest. */
export function pathMatches(pattern: string, path: string): boolean {
  if (pattern === path) return true;
  const re = new RegExp(
    "^" +
      pattern
        .split("**")
        .map((part) => part.split("*").map(escapeRe).join("[^/]*"))
        .join(".*") +
      "$",
  );
  return re.test(path);
}

const escapeRe = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
