import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { Store, type StateExport } from "./store.ts";

// A state file kept current while the emulator runs (--state FILE): every
// change reaches the disk within a second, and each write is atomic (a
// temporary file beside it, fsync, rename, fsync of the folder), so a crash
// at any moment leaves the previous complete file or the new one, never a
// torn one.

/** How often the state is compared with what was last written (wall time: this is I/O, not emulated time). */
export const STATE_FILE_INTERVAL_MS = 400;

export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
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

/** The export in `file`, or undefined when there is none; throws a one-line reason for a file that is not one. */
export function readStateFile(file: string): StateExport | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new Error("not JSON (is it an emulator state file?)");
  }
  return Store.parseExport(parsed);
}

export interface StateFileWriter {
  /** Writes now if the state changed since the last write. */
  flush(): void;
  stop(): void;
}

/** What identifies the chain's content without serialising it (chain/journal.ts: entries are immutable, only appended or cut). */
function chainKey(chain: StateExport["chain"]): unknown[] {
  return chain ? [chain.genesis_time, chain.journal.length, chain.journal.at(-1), chain.head.hash] : [null];
}

/**
 * Watches the state and writes it through to `file`: compared every
 * STATE_FILE_INTERVAL_MS (cheap next to a write), written only when it changed.
 * Comparing the serialised state, rather than tracking writers, catches every
 * change whatever made it: a request, a timer, a webhook attempt finishing.
 * The chain (a journal that can reach megabytes) is compared by its length and
 * last entry, and serialised only when it changed.
 */
export function writeThrough(file: string, exportState: () => StateExport): StateFileWriter {
  let last = "";
  let lastChain: unknown[] = [];
  let chainText = "null";
  const flush = () => {
    const { state, chain, ...head } = exportState();
    const body = JSON.stringify(state);
    const key = chainKey(chain);
    const chainSame = key.length === lastChain.length && key.every((v, i) => v === lastChain[i]);
    if (body === last && chainSame) return;
    if (!chainSame) chainText = JSON.stringify(chain);
    // The state is serialised once, for the comparison and for the file.
    writeFileAtomic(file, `${JSON.stringify(head).slice(0, -1)},"state":${body},"chain":${chainText}}`);
    last = body;
    lastChain = key;
  };
  const timer = setInterval(() => {
    try {
      flush();
    } catch (err) {
      console.error(`[emulator] could not write the state file ${file}:`, err);
    }
  }, STATE_FILE_INTERVAL_MS);
  timer.unref();
  return {
    flush,
    stop() {
      clearInterval(timer);
      rmSync(`${file}.${process.pid}.tmp`, { force: true });
    },
  };
}
