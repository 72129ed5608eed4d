import {
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { StateFileError } from "./state-file.ts";

// Before a --state file is used: where writes must go (through symlinks, to
// the target), whether its folder takes writes, and that no other running
// emulator writes it too (a lock file beside it holding the owner's pid).

const REMEDY = "Point {state} at a file in a writable folder.";

/** The real file behind `file`: symlinks followed (even a dangling one, whose target is created), the folder's path resolved. */
export function resolveStateTarget(file: string): string {
  let target = resolve(file);
  for (let hops = 0; ; hops++) {
    let link: string;
    try {
      if (!lstatSync(target).isSymbolicLink()) break;
      link = readlinkSync(target);
    } catch {
      break; // nothing there (yet): the checks below say what is wrong with the folder
    }
    if (hops > 40) throw new StateFileError(file, "too many levels of symbolic links", REMEDY);
    target = resolve(dirname(target), link);
  }
  let real: string;
  try {
    real = join(realpathSync(dirname(target)), basename(target));
  } catch (err) {
    throw folderError(file, dirname(target), err);
  }
  if (isFolder(real)) throw new StateFileError(file, `${real} is a folder`, "Point {state} at a file.");
  return real;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function folderError(file: string, dir: string, err: unknown): StateFileError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT")
    return new StateFileError(
      file,
      `the folder ${dir} does not exist`,
      "Create it, or point {state} at a file in an existing folder.",
    );
  if (code === "ENOTDIR") return new StateFileError(file, `${dir} is not a folder`, REMEDY);
  if (code === "EROFS") return new StateFileError(file, `the folder ${dir} is on a read-only file system`, REMEDY);
  if (code === "EACCES" || code === "EPERM")
    return new StateFileError(file, `no permission to write in ${dir}`, REMEDY);
  return new StateFileError(file, `cannot write in ${dir} (${code ?? (err as Error).message})`, REMEDY);
}

/** Pids of emulators in this process holding a lock (a second createEmulator on the same file is refused too). */
const heldHere = new Set<string>();

function holderOf(lock: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (pid === process.pid) return heldHere.has(lock) ? pid : null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, owned by another user.
    return (err as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/**
 * Claims `target` (a resolved path) for this emulator: `${target}.lock`, created
 * exclusively, holds the pid. A lock whose process is gone (SIGKILL) is taken
 * over. Throws a StateFileError naming the file and what to do; returns the release.
 */
export function claimStateFile(file: string, target: string): () => void {
  const lock = `${target}.lock`;
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, "wx");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw folderError(file, dirname(target), err);
      const pid = holderOf(lock);
      if (pid !== null || attempt > 0)
        throw new StateFileError(
          file,
          `another emulator (pid ${pid ?? "unknown"}) is using it`,
          `Stop that one or point {state} elsewhere (if no emulator runs, delete ${lock}).`,
        );
      rmSync(lock, { force: true }); // left by a process that is gone
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    heldHere.add(lock);
    return () => {
      heldHere.delete(lock);
      try {
        if (readFileSync(lock, "utf8").trim() === String(process.pid)) rmSync(lock, { force: true });
      } catch {
        // already gone
      }
    };
  }
}
