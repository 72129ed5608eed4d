import { describe, it, expect } from "vitest";
import { groupAlive } from "../cli/child-group.ts";
import request from "supertest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, runToEnd } from "./cli-launch.ts";

// `npx emulator exec`, the EMULATOR_* variables for every flag and `npx emulator trigger` (the serve command's
// tests are in test/cli.test.ts).

/** The group's processes as `ps` shows them (for a failure's message). */
function membersOf(pgid: number): string {
  return execFileSync("ps", ["-eo", "pid,ppid,pgid,stat,cmd"], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.trim().split(/\s+/)[2] === String(pgid))
    .join("; ");
}

/** Whether no process of the group is left (a zombie awaiting its reaper is not one); polls liveness for at most 2 s. */
async function groupGone(pgid: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (!groupAlive(pgid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    process.kill(-pgid, "SIGKILL"); // leave nothing behind after a failed check
  } catch {
    // gone in the meantime
  }
  return false;
}

const PRINT_ENV = `fetch(process.env.EMULATOR_URL + "/_emulator/health").then((r) => r.json()).then((b) => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("EMULATOR_")));
  console.log(JSON.stringify({ status: b.data.status, env }));
});`;

describe("npx emulator exec", () => {
  it("runs the command with EMULATOR_URL, EMULATOR_RPC_URL and one EMULATOR_KEY_<NAME> per fixture key, then stops (exit 0)", async () => {
    const { code, stdout, stderr } = await runToEnd(["exec", "--", process.execPath, "-e", PRINT_ENV]).done;
    expect(code, stderr).toBe(0);
    const { status, env } = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(status).toBe("ok");
    expect(env.EMULATOR_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.EMULATOR_URL).not.toBe("http://127.0.0.1:4010"); // free ports unless given
    expect(env.EMULATOR_RPC_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const names = Object.keys(env)
      .filter((k) => k.startsWith("EMULATOR_KEY_"))
      .sort();
    expect(names).toEqual([
      "EMULATOR_KEY_CATALOG_ONLY",
      "EMULATOR_KEY_DEMO",
      "EMULATOR_KEY_KYC",
      "EMULATOR_KEY_LEGACY",
      "EMULATOR_KEY_REVENUE_SHARE",
      "EMULATOR_KEY_TENANT",
      "EMULATOR_KEY_TENANT_READONLY",
      "EMULATOR_KEY_TIER",
    ]);
    // the former name of the revenue-share key is the same key
    expect(env.EMULATOR_KEY_TIER).toBe(env.EMULATOR_KEY_REVENUE_SHARE);
    for (const n of names) expect(env[n]).toMatch(/^rip_v1_[\w-]{43}$/);
    // stopped: nothing answers there any more
    await expect(
      request(env.EMULATOR_URL)
        .get("/_emulator/health")
        .then((r) => r.status),
    ).rejects.toThrow();
  });

  it("exits with the command's status, 127 with a clear message when it is not found, and passes SIGTERM on", async () => {
    const failing = await runToEnd(["exec", "--no-chain", "--", process.execPath, "-e", "process.exit(3)"]).done;
    expect(failing.code).toBe(3);
    const missing = await runToEnd(["exec", "--no-chain", "--", "no-such-command-xyz", "--flag"]).done;
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain("command not found: no-such-command-xyz");
    const shell = await runToEnd(["exec", "--no-chain", `node -e "process.exit(4)"`]).done; // one argument with spaces: the shell runs it
    expect(shell.code).toBe(4);

    const waiting = runToEnd([
      "exec",
      "--no-chain",
      "--",
      process.execPath,
      "-e",
      `process.on("SIGTERM", () => { console.log("child got SIGTERM"); process.exit(5); }); console.log("child ready"); setInterval(() => {}, 1000);`,
    ]);
    await waiting.first; // the child's first line
    waiting.child.kill("SIGTERM");
    const ended = await waiting.done;
    expect(ended.code).toBe(5);
    expect(ended.stdout).toContain("child got SIGTERM");
  });

  it("ends the command's whole process group on SIGTERM and SIGINT, and kills what ignores the signal", async () => {
    const dir = mkdtempSync(join(tmpdir(), "exec-group-"));
    // sh runs `sleep` as its own child: the signal must reach the group, not only sh ($$ leads the group)
    const cases = [
      { signal: "SIGTERM", script: "sleep 47; echo done", code: 143 },
      { signal: "SIGINT", script: "sleep 47; echo done", code: 130 },
      // ignores SIGTERM (set before "ready", so the signal cannot come first): killed after the grace
      { signal: "SIGTERM", script: "sleep 47 & wait; sleep 47", code: 137, before: "trap '' TERM; " },
    ] as const;
    for (const [i, { signal, script, code, ...rest }] of cases.entries()) {
      const pidFile = join(dir, `pid-${i}`);
      const before = "before" in rest ? rest.before : "";
      const run = runToEnd(["exec", "--no-chain", `echo $$ > ${pidFile}; ${before}echo ready; ${script}`]);
      expect(await run.first).toBe("ready");
      const group = Number(readFileSync(pidFile, "utf8").trim());
      run.child.kill(signal);
      const ended = await run.done;
      // The command's status as 128+N, never the CLI ended by the signal itself (a signal that came while the
      // command was being spawned, before the listeners were in, once did: seen on a loaded machine).
      expect(await run.signalled, `${script}: ${ended.stderr}`).toBeNull();
      // 128+N, or 137 when a shell still waiting on its child outlived the grace on a loaded machine (killed, as documented).
      expect([code, 137], `${signal} ${script}: ${ended.code} ${ended.stderr}`).toContain(ended.code);
      expect(ended.stdout).not.toContain("done");
      const gone = await groupGone(group);
      expect(gone, `${script}: the group ${group} survived: ${gone ? "" : membersOf(group)}`).toBe(true);
    }
  });

  it("needs a command (usage error, exit 2)", async () => {
    const { code, stderr } = await runToEnd(["exec", "--no-chain"]).done;
    expect(code).toBe(2);
    expect(stderr).toContain("exec needs a command");
  });
});

describe("EMULATOR_* variables for every flag", () => {
  it("read when the flag is absent; a flag wins; --help says so", async () => {
    const fromEnv = launch(["--json"], {
      EMULATOR_PORT: "0",
      EMULATOR_SEED: "3",
      EMULATOR_NO_CHAIN: "1",
      EMULATOR_CLOCK: "manual",
    });
    const line = JSON.parse(await fromEnv.first);
    expect(line.rpcUrl).toBeNull();
    const health = (await request(line.url).get("/_emulator/clock")).body.data;
    expect(health.mode).toBe("manual");
    fromEnv.child.kill("SIGINT");
    expect(await fromEnv.exited).toBe(0);

    const flagWins = launch(["--json", "--seed", "4", "--clock", "realtime"], {
      EMULATOR_PORT: "0",
      EMULATOR_SEED: "3",
      EMULATOR_NO_CHAIN: "1",
      EMULATOR_CLOCK: "manual",
    });
    const other = JSON.parse(await flagWins.first);
    expect((await request(other.url).get("/_emulator/clock")).body.data.mode).toBe("realtime");
    expect(other.keys.find((k: { name: string }) => k.name === "demo").key).not.toBe(
      line.keys.find((k: { name: string }) => k.name === "demo").key,
    );
    flagWins.child.kill("SIGINT");
    expect(await flagWins.exited).toBe(0);

    const bad = await runToEnd([], { EMULATOR_NO_CHAIN: "maybe" }).done;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("EMULATOR_NO_CHAIN must be 1/true or 0/false");

    const help = await runToEnd(["--help"]).done;
    expect(help.stdout).toContain("EMULATOR_RPC_PORT");
    expect(help.stdout).toContain("A flag on the command line wins over its variable");
  });
});

describe("npx emulator trigger", () => {
  it("emits an event on a running emulator; a real receiver gets it signed", async () => {
    const { startReceiver } = await import("./webhooks/receiver.ts");
    const { verifySignature } = await import("./webhooks/verify.ts");
    const rx = await startReceiver();
    const target = launch(["--json", "--port", "0", "--no-chain"]);
    const line = JSON.parse(await target.first);
    try {
      const demo = line.keys.find((k: { name: string }) => k.name === "demo").key;
      const hook = (await request(line.url).post("/api/v1/webhooks").set("X-API-Key", demo).send({ url: rx.url })).body;
      const out = await runToEnd([
        "trigger",
        "purchase.fulfilled",
        "--key",
        "demo",
        "--url",
        line.url,
        "--data",
        '{"purchase_id":77}',
      ]).done;
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/emitted purchase\.fulfilled:\S+ for acme/);
      expect(out.stdout).toContain(`→ ${rx.url}: DELIVERED after 1 attempt(s), HTTP 200`);
      expect(rx.received).toHaveLength(1);
      const got = rx.received[0]!;
      expect(got.headers["x-mystery-event"]).toBe("purchase.fulfilled");
      expect(JSON.parse(got.body).data.purchase_id).toBe(77);
      expect(verifySignature(hook.data.signing_secret, got.headers["x-mystery-signature"] as string, got.body).ok).toBe(
        true,
      );

      // EMULATOR_URL instead of --url
      const viaEnv = await runToEnd(["trigger", "order.tracking_updated", "--key", "demo"], { EMULATOR_URL: line.url })
        .done;
      expect(viaEnv.code, viaEnv.stderr).toBe(0);
      expect(rx.received.map((r) => r.headers["x-mystery-event"])).toEqual([
        "purchase.fulfilled",
        "order.tracking_updated",
      ]);

      const typo = await runToEnd(["trigger", "purchase.fulfiled", "--url", line.url]).done;
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('did you mean "purchase.fulfilled"');
      const unknownKey = await runToEnd(["trigger", "purchase.fulfilled", "--key", "nobody", "--url", line.url]).done;
      expect(unknownKey.code).toBe(1);
      expect(unknownKey.stderr).toContain("404");
      expect(rx.received).toHaveLength(2);
    } finally {
      target.child.kill("SIGINT");
      await rx.close();
    }
  });

  it("--help lists every event type; no emulator at the URL is a clear error", async () => {
    const { EVENT_TYPES } = await import("../emulator/events/types.ts");
    const help = await runToEnd(["trigger", "--help"]).done;
    expect(help.code).toBe(0);
    for (const t of EVENT_TYPES) expect(help.stdout).toContain(`    ${t}\n`);
    const none = await runToEnd(["trigger", "payout.paid", "--url", "http://127.0.0.1:9"]).done;
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no emulator answers at http://127.0.0.1:9");
  });
});
