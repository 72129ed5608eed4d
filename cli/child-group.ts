import { spawn, type SpawnOptions } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";

/** How long a signalled command's processes get to end before the rest of its group is killed. */
export const GRACE_MS = 5_000;

export type GroupExit = { status: number } | { error: NodeJS.ErrnoException };

/**
 * Starts a command in a process group of its own and passes SIGINT / SIGTERM to the whole group: a
 * signal sent only to `sh` leaves the `sleep` it runs alive. After a signal, what is left of the
 * group GRACE_MS later is killed, even when the command's first process ended sooner. The status
 * is the command's, 128+N when signal N ended it.
 */
export function runGroup(file: string, args: readonly string[], options: SpawnOptions): Promise<GroupExit> {
  // The listeners go in before the spawn: the command can start and print (and its caller signal us) before
  // spawn() returns to this code, and a signal arriving with no listener would end this process, not the
  // group. With them in place it waits for the loop, which runs after `child` is set.
  let child: ReturnType<typeof spawn> | null = null;
  let killAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Signals every process of the group (0 only asks whether one is left); false when none is. */
  const toGroup = (signal: NodeJS.Signals | 0): boolean => {
    if (child?.pid === undefined) return false;
    if (signal === 0) return groupAlive(child.pid);
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return false; // ESRCH: no process of the group is left
    }
  };
  const forward = (signal: NodeJS.Signals) => () => {
    toGroup(signal);
    killAt ??= Date.now() + GRACE_MS;
    timer ??= setTimeout(() => toGroup("SIGKILL"), GRACE_MS);
  };
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  const started = spawn(file, args, { ...options, detached: true });
  child = started;
  const ended = new Promise<GroupExit>((resolve) => {
    started.once("error", (error: NodeJS.ErrnoException) => resolve({ error }));
    started.once("exit", (code, signal) =>
      resolve({ status: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0) }),
    );
  });
  return ended
    .then(async (exit) => {
      // the first process has ended; after a signal, wait (bounded) for the rest of its group
      while (killAt !== undefined && Date.now() < killAt && toGroup(0)) await new Promise((r) => setTimeout(r, 50));
      if (killAt !== undefined) toGroup("SIGKILL");
      return exit;
    })
    .finally(() => {
      clearTimeout(timer);
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    });
}

/**
 * Whether a process of group `pgid` still runs. Where /proc exists a zombie does not count: a process
 * whose parent died first waits there for whoever adopts it to reap it, and `kill(-pgid, 0)` still
 * finds it although it runs nothing.
 */
export function groupAlive(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false; // ESRCH: no process of the group is left
    }
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // ended while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}
