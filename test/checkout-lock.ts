import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

// One holder at a time of the checkout's package.json: `npm pack` (test/package.test.ts) rewrites it without its
// scripts until postpack puts it back (scripts/pack-manifest.mjs), and knip (test/lint.test.ts) reads them. Two
// `npm test` runs in one checkout, or the two files side by side in one run, take turns through this lock. A
// directory is the lock (mkdir is atomic) with the holder's pid in it; a holder that died leaves it to the next.

const LOCK = join(import.meta.dirname, "..", "node_modules", ".cache", "cardos-checkout.lock");
const PID = join(LOCK, "pid");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock if it is free or its holder is gone; false while a live process holds it. */
function tryTake(): boolean {
  mkdirSync(dirname(LOCK), { recursive: true });
  try {
    mkdirSync(LOCK);
    writeFileSync(PID, String(process.pid));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  let holder: number | null = null;
  try {
    holder = Number(readFileSync(PID, "utf8"));
  } catch {
    // Taken a moment ago, its pid not written yet; or its holder died in between (then the lock is a minute old).
    try {
      if (Date.now() - statSync(LOCK).mtimeMs < 60_000) return false;
    } catch {
      return false; // released meanwhile: the next turn takes it
    }
  }
  if (holder !== null && Number.isInteger(holder) && holder > 0 && alive(holder)) return false;
  rmSync(LOCK, { recursive: true, force: true });
  return false; // the next turn takes it (or another waiter does first)
}

/** Runs `fn` holding the lock; waits (a hang detector bounds it) while another process holds it. */
export async function withCheckoutLock<T>(fn: () => T | Promise<T>, timeoutMs = 900_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (!tryTake()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${LOCK}`);
    await new Promise((r) => setTimeout(r, 20)); // a turn of the poll for another process, not a sleep a test needs
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
