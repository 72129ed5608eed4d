import { describe, it, expect, beforeAll, afterAll } from "vitest";
import request from "supertest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { checkReceiver } from "./run.ts";
import { RECEIVER_CASES } from "./cases.ts";
import { EVENT_TYPES } from "../../contract/events.ts";
import { startEmulator } from "../../test/helpers.ts";

// The receiver check against the two example receivers of docs/examples/, run as a partner runs them:
// the reference one passes every case, the naive one fails exactly what it gets wrong.

const ROOT = join(import.meta.dirname, "..", "..");
const SECRET = "ab".repeat(32);

interface Running {
  url: string;
  child: ChildProcess;
}

async function launch(file: string, env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [join(ROOT, "docs", "examples", file)], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, PORT: "0", WEBHOOK_SECRET: SECRET, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${file} exited ${code}`)));
  });
  return { url: /http:\/\/\S+/.exec(line)![0], child };
}

const stop = (r: Running | undefined) =>
  new Promise<void>((resolve) =>
    r && r.child.exitCode === null ? (r.child.once("exit", () => resolve()), r.child.kill()) : resolve(),
  );

/** Cases the naive receiver (no signature check, no idempotency, no size limit) must fail. */
const NAIVE_FAILS = [
  "signature.wrong_secret",
  "signature.missing",
  "signature.tampered_body",
  "timestamp.stale",
  "timestamp.future",
  "duplicate.replay",
  "duplicate.parallel",
  "body.huge",
].map((id) => `receiver.${id}`);

function runCli(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [join(ROOT, "bin", "emulator.js"), "receiver-check", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, EMULATOR_FROM_SOURCE: "1" },
  });
  let stdout = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.resume();
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout })));
}

describe("npx emulator receiver-check", () => {
  let good: Running | undefined;
  let naive: Running | undefined;
  beforeAll(async () => {
    [good, naive] = await Promise.all([launch("webhook-receiver.mjs"), launch("naive-webhook-receiver.mjs")]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([stop(good), stop(naive)]);
  });

  it("covers every documented event type and every hostile case", () => {
    const ids = RECEIVER_CASES.map((c) => c.id);
    for (const t of EVENT_TYPES) expect(ids).toContain(`event.${t}`);
    for (const id of NAIVE_FAILS) expect(ids).toContain(id.replace(/^receiver\./, ""));
    expect(ids).toContain("order.fulfilled_before_submitted");
    expect(ids).toContain("event.unknown_type");
  });

  it("the reference receiver passes every case, each event applied exactly once (probe)", async () => {
    const suite = await checkReceiver({ url: `${good!.url}/webhooks`, secret: SECRET, probe: `${good!.url}/applied` });
    expect(suite.results).toHaveLength(RECEIVER_CASES.length);
    expect(suite.results.filter((r) => r.outcome !== "pass").map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    // The probe saw each valid event once: the 25 types, the replay, the parallel pair, the two out-of-order ones, the event after the huge body.
    const applied = ((await request(good!.url).get("/applied")).body as { applied: Array<{ id: string }> }).applied;
    expect(new Set(applied.map((a) => a.id)).size).toBe(applied.length);
    expect(applied).toHaveLength(EVENT_TYPES.length + 1 + 1 + 2 + 1 + 1);
  }, 60_000);

  it("the naive receiver fails exactly the signature, freshness, duplicate and size cases", async () => {
    const suite = await checkReceiver({
      url: `${naive!.url}/webhooks`,
      secret: SECRET,
      probe: `${naive!.url}/applied`,
    });
    const failed = suite.results.filter((r) => r.outcome !== "pass");
    expect(failed.map((r) => r.id).sort()).toEqual([...NAIVE_FAILS].sort());
    expect(failed.every((r) => r.outcome === "fail")).toBe(true);
    const replay = failed.find((r) => r.id === "receiver.duplicate.replay")!;
    expect(replay.message).toMatch(/applied 2 time\(s\), expected 1/);
    expect(failed.find((r) => r.id === "receiver.signature.missing")!.message).toMatch(/accepted with HTTP 200/);
    // The failed case's transcript shows the exchange without the signature.
    expect(replay.transcript?.[0].request_headers["x-mystery-signature"]).toBe("[redacted]");
  }, 60_000);

  it("without a probe, duplicates are judged by their answers only", async () => {
    const suite = await checkReceiver({
      url: `${naive!.url}/webhooks`,
      secret: SECRET,
      only: ["duplicate.replay", "duplicate.parallel", "signature.missing"],
    });
    expect(suite.results.map((r) => [r.id, r.outcome])).toEqual([
      ["receiver.signature.missing", "fail"],
      ["receiver.duplicate.replay", "pass"],
      ["receiver.duplicate.parallel", "pass"],
    ]);
  }, 30_000);

  it("a receiver that is not there fails every case, the forged ones included", async () => {
    const suite = await checkReceiver({
      url: "http://127.0.0.1:9/webhooks",
      secret: SECRET,
      only: ["event.deposit.credited", "signature.missing", "timestamp.stale"],
    });
    expect(suite.results.map((r) => [r.id, r.outcome])).toEqual([
      ["receiver.event.deposit.credited", "fail"],
      ["receiver.signature.missing", "fail"],
      ["receiver.timestamp.stale", "fail"],
    ]);
    expect(suite.results[1].message).toMatch(/no HTTP answer \(connection failed/);
  }, 30_000);

  it("the command exits 0 for the reference receiver and 1 for the naive one, writing its reports", async () => {
    const dir = mkdtempSync(join(tmpdir(), "receiver-check-"));
    const ok = await runCli([
      "--url",
      `${good!.url}/webhooks`,
      "--secret",
      SECRET,
      "--probe",
      `${good!.url}/applied`,
      "--report",
      `junit=${join(dir, "good.xml")}`,
    ]);
    expect(ok.stdout).toContain("Receiver check against");
    expect(ok.code).toBe(0);
    expect(readFileSync(join(dir, "good.xml"), "utf8")).toContain(`tests="${RECEIVER_CASES.length}" failures="0"`);
    const bad = await runCli([
      "--url",
      `${naive!.url}/webhooks`,
      "--secret",
      SECRET,
      "--probe",
      `${naive!.url}/applied`,
      "--report",
      `json=${join(dir, "naive.json")}`,
      "--report",
      `md=${join(dir, "naive.md")}`,
    ]);
    expect(bad.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, "naive.json"), "utf8")) as {
      results: Array<{ id: string; outcome: string }>;
    };
    expect(
      report.results
        .filter((r) => r.outcome === "fail")
        .map((r) => r.id)
        .sort(),
    ).toEqual([...NAIVE_FAILS].sort());
    expect(readFileSync(join(dir, "naive.md"), "utf8")).toMatch(/^# Receiver check report/);
  }, 120_000);

  it("the reference receiver accepts the emulator's own deliveries (the same scheme) and dedupes a resend", async () => {
    const { emu, api, close } = await startEmulator({ chain: false });
    let rx: Running | undefined;
    try {
      const key = emu.key("demo");
      const reg = (
        await api
          .post("/api/v1/webhooks")
          .set("X-API-Key", key)
          .send({ url: "http://127.0.0.1:9/placeholder" })
          .expect(201)
      ).body.data;
      // The manual clock signs with its own time: tolerance off, as docs/webhooks.md advises for such tests.
      rx = await launch("webhook-receiver.mjs", { WEBHOOK_SECRET: reg.signing_secret, TOLERANCE_MS: "0" });
      await api
        .patch(`/api/v1/webhooks/${reg.id}`)
        .set("X-API-Key", key)
        .send({ url: `${rx.url}/webhooks` })
        .expect(200);
      const sent = (await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key }).expect(201)).body
        .data;
      expect(sent.deliveries.map((d: { status: string }) => d.status)).toEqual(["DELIVERED"]);
      await api.post("/_emulator/webhooks/resend").send({ delivery_id: sent.deliveries[0].id }).expect(200);
      const attempts = (await api.get("/_emulator/webhooks/outbox").expect(200)).body.data.attempts;
      expect(
        attempts.map((a: { outcome: string; response: { status: number } }) => [a.outcome, a.response.status]),
      ).toEqual([
        ["delivered", 200],
        ["delivered", 200],
      ]);
      const applied = ((await request(rx.url).get("/applied")).body as { applied: Array<{ id: string }> }).applied;
      expect(applied.map((a) => a.id)).toEqual([sent.event.id]);
    } finally {
      await close();
      await stop(rx);
    }
  }, 60_000);
});
