import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { expect, it } from "vitest";

// The banner's "ready in" counts from process start, module loading included: it is at least the time the
// child's own preload (run before any of the CLI's modules) saw, and its loading figure; at most what the
// parent saw from spawn to the banner line.

const BIN = join(import.meta.dirname, "..", "..", "bin", "emulator.js");
// Runs before the CLI's first module is loaded: its performance.now() is time since process start.
const PRELOAD = `data:text/javascript,process.stderr.write("preload at " + performance.now() + " ms\\n")`;

it("reports ready from process start, module loading included", async () => {
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--import", PRELOAD, BIN, "--port", "0", "--rpc-port", "0", "--quiet"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on("line", (l) => {
        if (l.includes("ready in")) resolve(l);
      });
      void exited.then((code) => reject(new Error(`emulator exited ${code}: ${stderr}`)));
    });
    const parentMs = performance.now() - t0;
    const m = /ready in (\d+) ms from process start \((\d+) ms loading modules\)/.exec(line);
    expect(m, line).not.toBeNull();
    const [readyMs, loadedMs] = [Number(m![1]), Number(m![2])];
    const preloadMs = Number(/preload at ([\d.]+) ms/.exec(stderr)?.[1]);
    expect(preloadMs).toBeGreaterThan(0);
    expect(loadedMs).toBeGreaterThan(preloadMs);
    expect(readyMs).toBeGreaterThanOrEqual(loadedMs);
    expect(readyMs).toBeLessThanOrEqual(Math.ceil(parentMs));
    expect(stderr).toContain("chain: ready");
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
});
