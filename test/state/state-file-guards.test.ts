import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, StateFileError } from "../../emulator/index.ts";
import { readStateFile } from "../../emulator/state/state-file.ts";
import { BIN, launchEmulator } from "./launch.ts";

// What --state FILE refuses before anything starts (one line naming the file
// and what to do), and where its writes go.

const dir = () => mkdtempSync(join(tmpdir(), "emu-guard-"));

/** Runs the real bin expecting it to refuse: its exit code and stderr. */
async function refused(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "--json", "--port", "0", "--no-chain", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stderr };
}

const labels = (file: string) => Object.values(readStateFile(file)!.state.keys).map((k) => k.label);

async function addKey(emu: Awaited<ReturnType<typeof createEmulator>>, label: string) {
  const res = await request(emu.url).post("/_emulator/keys").send({ kind: "partner", label });
  expect(res.status).toBe(201);
}

describe("--state FILE: one emulator per file", () => {
  it("a second emulator on the same file is refused with one line; a lock left by a SIGKILLed one does not block", async () => {
    const file = join(dir(), "state.json");
    const a = await launchEmulator(["--no-chain", "--clock", "manual", "--state", file]);
    try {
      const second = await refused(["--clock", "manual", "--state", file]);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(
        new RegExp(
          `^emulator: --state .*state\\.json: another emulator \\(pid ${a.child.pid}\\) is using it\\. Stop that one or point --state elsewhere`,
        ),
      );
      expect(second.stderr).not.toMatch(/\n\s+at /);
    } finally {
      a.child.kill("SIGKILL");
      await a.exited;
    }
    expect(existsSync(`${file}.lock`)).toBe(true); // left behind by the SIGKILL
    const b = await launchEmulator(["--no-chain", "--clock", "manual", "--state", file]);
    b.child.kill("SIGTERM");
    await b.exited;
    expect(existsSync(`${file}.lock`)).toBe(false); // released on a clean stop
  });

  it("in one process too: a second createEmulator on the file is refused until the first is closed", async () => {
    const file = join(dir(), "state.json");
    const a = await createEmulator({ clock: "manual", stateFile: file });
    try {
      const second = createEmulator({ clock: "manual", stateFile: file });
      await expect(second).rejects.toBeInstanceOf(StateFileError);
      await expect(second).rejects.toThrow(`another emulator (pid ${process.pid}) is using it`);
    } finally {
      await a.close();
    }
    const again = await createEmulator({ clock: "manual", stateFile: file });
    await again.close();
  });
});

describe("--state FILE through a symlink", () => {
  it("writes go to the link's target; the link stays a link", async () => {
    const d = dir();
    mkdirSync(join(d, "real"));
    const target = join(d, "real", "state.json");
    const link = join(d, "link.json");
    symlinkSync(target, link); // dangling until the first write
    const a = await createEmulator({ clock: "manual", stateFile: link, port: 0 });
    await addKey(a, "through-the-link");
    await a.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(labels(target)).toContain("through-the-link");
    // Started again through the link, the state is back, and the target keeps changing.
    const b = await createEmulator({ clock: "manual", stateFile: link, port: 0 });
    expect(Object.values(b.services.store.state.keys).map((k) => k.label)).toContain("through-the-link");
    await addKey(b, "second-run");
    await b.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(labels(target)).toContain("second-run");
  });
});

describe("--state FILE that cannot be written", () => {
  it("a file where the folder should be, a missing folder, a folder as the file: one line each, before anything starts", async () => {
    const d = dir();
    writeFileSync(join(d, "plain"), "x");
    mkdirSync(join(d, "a-folder"));
    const cases: Array<[string, RegExp]> = [
      // In process the remedy names createEmulator's option, never the CLI's flag (the CLI's line below says --state).
      [join(d, "plain", "state.json"), /plain is not a folder\. Point stateFile at a file in a writable folder\.$/],
      [
        join(d, "missing", "state.json"),
        /the folder .*missing does not exist\. Create it, or point stateFile at a file in an existing folder\.$/,
      ],
      [join(d, "a-folder"), /a-folder is a folder\. Point stateFile at a file\.$/],
    ];
    for (const [file, message] of cases) {
      const start = createEmulator({ clock: "manual", stateFile: file });
      await expect(start).rejects.toBeInstanceOf(StateFileError);
      await expect(start).rejects.toThrow(message);
    }
    const cli = await refused(["--state", join(d, "plain", "state.json")]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(
      /^emulator: --state .*plain\/state\.json: .*plain is not a folder\. Point --state at a file in a writable folder\.\n/,
    );
    expect(cli.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("--state FILE with --seed", () => {
  it("a different explicit --seed is refused naming both seeds; the file's seed runs without one", async () => {
    const file = join(dir(), "state.json");
    const a = await createEmulator({ clock: "manual", seed: 1, stateFile: file });
    await a.close();
    await expect(createEmulator({ clock: "manual", seed: 7, stateFile: file })).rejects.toThrow(
      /it holds seed 1, but seed 7 was asked for/,
    );
    const cli = await refused(["--seed", "7", "--state", file]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(
      /^emulator: --state .*state\.json: it holds seed 1, but seed 7 was asked for\. Drop --seed/,
    );
    const b = await launchEmulator(["--no-chain", "--clock", "manual", "--state", file]);
    try {
      const health = (await request(b.info.url).get("/_emulator/health")).body as { data: { seed: number } };
      expect(health.data.seed).toBe(1);
    } finally {
      b.child.kill("SIGKILL");
      await b.exited;
    }
    readFileSync(file, "utf8");
  });
});
