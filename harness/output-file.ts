import { closeSync, existsSync, openSync, realpathSync, rmSync, statSync } from "node:fs";
import { UsageError } from "./cli-args.ts";
import { writeFileAtomic } from "../emulator/state/state-file.ts";

// Files a command writes (openapi --out, conformance --report / --bundle): a
// path that cannot take the file is refused in one line before the work (a
// suite run takes minutes), and the file is written atomically, so a full
// disk leaves the previous file, never a torn one.

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    ENOENT: "its folder does not exist",
    ENOTDIR: "a part of its path is not a folder",
    EISDIR: "it is a folder",
    EACCES: "no permission",
    EPERM: "no permission",
    EROFS: "read-only file system",
    ENOSPC: "no space left on the device",
    EFBIG: "the file is too large for this system's limit",
  };
  return (code && known[code]) ?? (err as Error).message.split("\n")[0]!;
}

const refuse = (flag: string, file: string, why: string) =>
  new UsageError(`${flag} ${file}: cannot write it (${why}); choose another path`);

/** Symlinks are written through to their target (the link stays a link). */
const targetOf = (file: string) => (existsSync(file) ? realpathSync(file) : file);

/** Throws a one-line UsageError unless `file` can be created or replaced. */
export function checkWritable(flag: string, file: string): void {
  const target = targetOf(file);
  if (existsSync(target) && statSync(target).isDirectory()) throw refuse(flag, file, "it is a folder");
  const probe = `${target}.${process.pid}.probe`;
  try {
    closeSync(openSync(probe, "wx"));
    rmSync(probe);
  } catch (err) {
    throw refuse(flag, file, reason(err));
  }
}

/** Writes `text` to `file` atomically; a failure is a one-line UsageError and the previous file stays. */
export function writeOutput(flag: string, file: string, text: string): void {
  try {
    writeFileAtomic(targetOf(file), text);
  } catch (err) {
    throw refuse(flag, file, reason(err));
  }
}
