import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { startEmulator } from "../helpers.ts";
import { deviations } from "../../testing/deviations/index.ts";

// `npx emulator shadow` shows its drift report live on the dashboard of the emulator it starts
// (Reports tab): the upstream is a second emulator with a deviation on, and a differing read made
// through the proxy appears as a row while the shadow runs, without reloading the page.

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BIN = join(import.meta.dirname, "..", "..", "bin", "emulator.js");

let up: Awaited<ReturnType<typeof startEmulator>>;
let child: ChildProcess;
let proxy: string;
let dashboard: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  up = await startEmulator({ plugins: [deviations] });
  await up.api.post("/_emulator/deviations").send({ name: "schema_field_renamed" }).expect(201);
  const args = ["shadow", "--upstream", up.emu.url, "--upstream-key", up.emu.key("demo"), "--port", "0", "--no-chain"];
  child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  [proxy, dashboard] = await new Promise<[string, string]>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      stderr += d;
      const p = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
      const ui = /the drift report, live: (http:\/\/127\.0\.0\.1:\d+\/_emulator\/ui)/.exec(stderr)?.[1];
      if (p && ui) resolve([p, ui]);
    });
    child.once("exit", (code) => reject(new Error(`shadow exited ${code}: ${stderr}`)));
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(60_000); // a loaded machine renders slowly; a hang still fails
  await page.goto(dashboard);
  await page.waitForSelector('body[data-live="1"]');
});

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await up?.close();
});

describe("the shadow drift report on the dashboard", () => {
  it("shows the empty report first, then a differing read as a row, live", async () => {
    await page.click('#tabs button[data-view="panels"]');
    const panel = page.locator('[data-testid="panel"][data-id="shadow-drift"]');
    await panel.waitFor();
    expect(await panel.locator("h2").textContent()).toBe("Shadow drift");
    expect(await panel.locator('[data-testid="panel-summary"]').textContent()).toContain("calls: 0");
    expect(await panel.locator('[data-testid="panel-row"]').count()).toBe(0);

    expect((await request(proxy).get("/api/v1/pokemon/cards/base1-1")).status).toBe(200);
    const bad = panel.locator('[data-testid="panel-row"][data-tone="bad"]');
    await bad.first().waitFor();
    const cellsOf = (trs: Element[]) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
    const rows = await bad.evaluateAll(cellsOf);
    expect(rows.map((r) => `${r[0]} | ${r[2]} | ${r[3]}`).sort()).toEqual([
      "cards.get (GET /:game{pokemon|onepiece|azuki}/cards/:id) | field missing upstream | /data/name",
      "cards.get (GET /:game{pokemon|onepiece|azuki}/cards/:id) | field only upstream | /data/card_name",
    ]);
    expect(await panel.locator('[data-testid="panel-summary"]').textContent()).toContain("calls: 1");
    // The upstream key never reaches the page.
    expect(await page.content()).not.toContain(up.emu.key("demo"));

    expect((await request(proxy).get("/api/v1/health")).status).toBe(200);
    await panel.locator('[data-testid="panel-row"][data-tone="ok"]').first().waitFor();
    expect(await panel.locator('[data-testid="panel-summary"]').textContent()).toContain("calls: 2");
  });
});
