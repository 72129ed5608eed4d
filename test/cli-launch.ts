import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

// Starts `bin/emulator.js` as a child for the CLI tests (test/cli.test.ts, test/cli-exec.test.ts): its first
// line, its exit code and signal, its stderr.

const BIN = join(import.meta.dirname, "..", "bin", "emulator.js");

export function launch(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout! });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const first = new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`emulator ${args.join(" ")} exited ${code}: ${stderr}`)));
  });
  first.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const signalled = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal)),
  );
  return { child, first, exited, signalled, stderr: () => stderr };
}

/** Runs the bin to its end: exit code, stdout, stderr. */
export function runToEnd(args: string[], env: Record<string, string> = {}) {
  const run = launch(args, env);
  let stdout = "";
  run.child.stdout!.on("data", (d) => (stdout += d));
  return { ...run, done: run.exited.then((code) => ({ code, stdout, stderr: run.stderr() })) };
}
