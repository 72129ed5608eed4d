import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { Store, type StateExport } from "./store.ts";
import { isoOf } from "../../contract/time.ts";
import { hostNow } from "../clock/clock.ts";

// A state file kept current while the emulator runs (--state FILE): every
// change reaches the disk within a second, and each write is atomic (a
// temporary file beside it, fsync, rename, fsync of the folder), so a crash
// at any moment leaves the previous complete file or the new one, never a
// torn one. A write cut short (a full disk, a file size limit) is never
// renamed over the file: it is reported and the previous file stays.

/** How often the state is compared with what was last written (wall time: this is I/O, not emulated time). */
export const STATE_FILE_INTERVAL_MS = 400;

export { OPTION_NAMES, StateFileError, type OptionNames } from "./state-file-error.ts";

/** The temporary file a write goes through (beside the target, so the rename stays on one file system). */
export const tempOf = (file: string) => `${file}.${process.pid}.tmp`;

/** Writes `text` to `file` atomically; throws (leaving `file` as it was) unless every byte reached the disk. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = tempOf(file);
  const bytes = Buffer.from(text, "utf8");
  try {
    const fd = openSync(tmp, "w");
    try {
      // writeSync may write less than asked (a full disk, `ulimit -f`): go on until all is written;
      // the next call then throws ENOSPC / EFBIG.
      for (let off = 0; off < bytes.length;) {
        const n = writeSync(fd, bytes, off, bytes.length - off);
        if (n <= 0) throw new Error(`short write (${off} of ${bytes.length} bytes written)`);
        off += n;
      }
      fsyncSync(fd);
      const size = fstatSync(fd).size;
      if (size !== bytes.length) throw new Error(`short write (${size} of ${bytes.length} bytes on disk)`);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const dir = openSync(dirname(file), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some filesystems cannot fsync a folder; the rename itself is still atomic.
  }
}

/** The parsed document in `file`, or undefined when there is none; throws a one-line reason for a file that is not JSON. */
export function readStateJson(file: string): unknown {
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error("not JSON (is it an emulator state file?)");
  }
}

/** The export in `file`, or undefined when there is none; throws a one-line reason for a file that is not one. */
export function readStateFile(file: string): StateExport | undefined {
  const parsed = readStateJson(file);
  return parsed === undefined ? undefined : Store.parseExport(parsed);
}

/** How the writes are going (GET /_emulator/health `state_file`, the dashboard). */
export interface StateFileStatus {
  path: string;
  ok: boolean;
  /** Why the last write failed; null once a write succeeds again. */
  error: string | null;
  /** Wall time of the last complete write. */
  written_at: string | null;
}

export interface StateFileWriter {
  /** Writes now if the state changed since the last write; a failure is reported, never thrown. */
  flush(): void;
  status(): StateFileStatus;
  stop(): void;
}

/** What identifies the chain's content without serialising it (chain/journal.ts: entries are immutable, only appended or cut). */
function chainKey(chain: StateExport["chain"]): unknown[] {
  return chain ? [chain.genesis_time, chain.journal.length, chain.journal.at(-1), chain.head.hash] : [null];
}

const oneLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split("\n")[0]!;

/**
 * Watches the state and writes it through to `file`: compared every
 * STATE_FILE_INTERVAL_MS (cheap next to a write), written only when it changed.
 * Comparing the serialised state, rather than tracking writers, catches every
 * change whatever made it: a request, a timer, a webhook attempt finishing.
 * The chain (a journal that can reach megabytes) is compared by its length and
 * last entry, and serialised only when it changed. A failed write is retried at
 * the next tick; `report` hears when writes start failing and when they recover.
 */
export function writeThrough(
  file: string,
  exportState: () => StateExport,
  report: (line: string) => void = (l) => console.error(l),
): StateFileWriter {
  let last = "";
  let lastChain: unknown[] = [];
  let chainText = "null";
  const status: StateFileStatus = { path: file, ok: true, error: null, written_at: null };
  const flush = () => {
    const { state, chain, ...head } = exportState();
    const body = JSON.stringify(state);
    const key = chainKey(chain);
    const chainSame = key.length === lastChain.length && key.every((v, i) => v === lastChain[i]);
    if (body === last && chainSame) return;
    if (!chainSame) chainText = JSON.stringify(chain);
    try {
      // The state is serialised once, for the comparison and for the file.
      writeFileAtomic(file, `${JSON.stringify(head).slice(0, -1)},"state":${body},"chain":${chainText}}`);
    } catch (err) {
      const error = oneLine(err);
      if (status.error !== error)
        report(
          `[emulator] could not write the state file ${file}: ${error}. The previous file is kept; changes since are not saved until a write succeeds (free some space?)`,
        );
      Object.assign(status, { ok: false, error });
      return;
    }
    if (!status.ok) report(`[emulator] the state file ${file} is written again`);
    Object.assign(status, { ok: true, error: null, written_at: isoOf(hostNow()) });
    last = body;
    lastChain = key;
  };
  const timer = setInterval(flush, STATE_FILE_INTERVAL_MS);
  timer.unref();
  return {
    flush,
    status: () => ({ ...status }),
    stop() {
      clearInterval(timer);
      rmSync(tempOf(file), { force: true });
    },
  };
}
