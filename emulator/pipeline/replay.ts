import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// Recorded reads (`npx emulator shadow --record DIR`, then `--replay DIR`): one JSON file per
// request, the upstream's answer masked. The emulator answers a recorded read with the recorded
// body as is, after the pipeline's own rules (auth, rate limits, credits) ran, so the catalog a
// partner really uses is served byte for byte. The format lives here, the lowest layer that reads it;
// shadow mode writes it through the public entry (emulator/index.ts).

export interface Recording {
  /** Format marker. */
  recording: 1;
  method: "GET";
  /** Path under the origin (with /api/v1) and the query as sent, `?` included when there is one. */
  path: string;
  status: number;
  /** The answer's body text (masked). */
  body: string;
  recorded_at: string;
}

/** The lookup key of a request: method, path and the query with its parameters in sorted order. */
export function replayKey(method: string, pathAndQuery: string): string {
  const q = pathAndQuery.indexOf("?");
  if (q === -1) return `${method} ${pathAndQuery}`;
  const params = new URLSearchParams(pathAndQuery.slice(q + 1));
  params.sort();
  const search = params.toString();
  return `${method} ${pathAndQuery.slice(0, q)}${search ? `?${search}` : ""}`;
}

/** Is `v` a recording file's content? */
export function isRecording(v: unknown): v is Recording {
  if (!v || typeof v !== "object") return false;
  const r = v as Record<string, unknown>;
  return (
    r.recording === 1 &&
    r.method === "GET" &&
    typeof r.path === "string" &&
    r.path.startsWith("/api/v1/") &&
    Number.isInteger(r.status) &&
    typeof r.body === "string"
  );
}

export class ReplayError extends Error {}

/** The recorded answers of a directory; a later file (by name) for the same request wins. */
export class Replay {
  private readonly answers = new Map<string, Recording>();

  static load(dir: string): Replay {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort();
    } catch (err) {
      throw new ReplayError(
        `replay directory ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    const replay = new Replay();
    for (const name of names) {
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(join(dir, name), "utf8"));
      } catch (err) {
        throw new ReplayError(`replay file ${join(dir, name)} is not JSON: ${(err as Error).message}`);
      }
      if (!isRecording(doc))
        throw new ReplayError(
          `replay file ${join(dir, name)} is not a recording (written by npx emulator shadow --record)`,
        );
      replay.add(doc);
    }
    return replay;
  }

  add(r: Recording): void {
    this.answers.set(replayKey(r.method, r.path), r);
  }

  get size(): number {
    return this.answers.size;
  }

  /** The recorded answer of `GET path?query`, if any. */
  find(method: string, pathname: string, search: string): Recording | null {
    if (method !== "GET" || this.answers.size === 0) return null;
    return this.answers.get(replayKey(method, search ? `${pathname}?${search}` : pathname)) ?? null;
  }
}
