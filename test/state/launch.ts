import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

// A real `node bin/emulator.js --json …` process for the state-file tests,
// ready when it printed its JSON line; `exited` settles when it is gone.

export const BIN = join(__dirname, "..", "..", "bin", "emulator.js");

export interface Launched {
  child: ChildProcess;
  info: { url: string; rpcUrl: string | null; keys: { key: string; label: string; kind: string }[] };
  exited: Promise<void>;
  stderr(): string;
}

export async function launchEmulator(args: readonly string[]): Promise<Launched> {
  const child = spawn(process.execPath, [BIN, "--json", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, info: JSON.parse(line) as Launched["info"], exited, stderr: () => stderr };
}
