import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startCheckReceiver, type CheckReceiver } from "../../harness/webhook-receiver.ts";

// The dashboard in a real headless Chromium (Debian's package, driven by
// playwright-core; .ci/run installs it when missing): every view is read from
// the control plane and every button is a control route. Screenshots of the
// main views go to docs/screenshots/ (the README shows them).

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHOTS = join(import.meta.dirname, "..", "..", "docs", "screenshots");

let emu: Emulator;
let browser: Browser;
let page: Page;
let rx: CheckReceiver;
let receiverAnswers = 500;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: false, vrf: "manual" } });
  rx = await startCheckReceiver(() => receiverAnswers);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(10_000);
  await page.goto(`${emu.url}/_emulator/ui`);
  await page.waitForSelector('body[data-live="1"]'); // the live stream is open
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await rx?.close();
  await emu?.close();
});

const api = (method: string, path: string, body?: unknown, key = emu.key("demo")) =>
  fetch(`${emu.url}${path}`, { method, headers: { "x-api-key": key, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const control = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  ((await (await fetch(`${emu.url}/_emulator${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) })).json()) as { data: T }).data;
const tab = (name: string) => page.click(`#tabs button[data-view="${name}"]`);

describe("the dashboard at /_emulator/ui", () => {
  it("shows an API call in the live journal with its status and the credits it cost", async () => {
    expect((await api("GET", "/api/v1/pokemon/cards/base1-4")).status).toBe(200);
    const row = page.locator('[data-testid="request-row"]', { hasText: "/api/v1/pokemon/cards/base1-4" }).first();
    await row.waitFor();
    expect(await row.locator("td").nth(4).textContent()).toBe("200");
    expect(await row.locator('[data-testid="credits"]').textContent()).toBe("1");
    await row.click();
    const curl = await page.locator('[data-testid="curl"]').textContent();
    expect(curl).toContain(`curl -X GET '${emu.url}/api/v1/pokemon/cards/base1-4'`);
    expect(curl).toContain("x-api-key: $API_KEY");
    expect(curl).not.toContain(emu.key("demo"));
    expect(await page.locator('[data-testid="response-body"]').textContent()).toContain('"name":"Charizard"');
    // the same entry as JSON, with the key masked
    const { requests } = await control<{ requests: Array<{ path: string; key: string; credits_cost: number }> }>("GET", "/requests?path=base1-4");
    expect(requests[0]).toMatchObject({ path: "/api/v1/pokemon/cards/base1-4", credits_cost: 1 });
    expect(requests[0]!.key).not.toBe(emu.key("demo"));
    await page.screenshot({ path: join(SHOTS, "requests.png") });
  });

  it("shows a failing webhook's attempts and next retry; advancing the clock from the page delivers it", async () => {
    expect((await api("POST", "/api/v1/webhooks", { url: rx.url, event_types: ["purchase.fulfilled"] })).status).toBe(201);
    await tab("webhooks");
    await page.selectOption('[data-testid="event-type"]', "purchase.fulfilled");
    await page.click('[data-testid="trigger-event"]');
    await page.locator('[data-testid="attempt"][data-outcome="failed"]').first().waitFor();
    expect(await page.locator('[data-testid="next-retry"]').count()).toBe(1);
    expect(await page.locator('[data-testid="next-retry"]').textContent()).toContain("attempt 2");
    await page.screenshot({ path: join(SHOTS, "webhooks.png") });

    receiverAnswers = 200;
    await tab("clock");
    await page.locator('[data-testid="timers"]').waitFor();
    await page.screenshot({ path: join(SHOTS, "clock.png") });
    await page.click('[data-testid="advance-30s"]');
    await tab("webhooks");
    await page.locator('[data-testid="attempt"][data-outcome="delivered"]').first().waitFor();
    expect(rx.deliveries.length).toBe(2);
    expect(await page.locator('[data-testid="next-retry"]').count()).toBe(0);
  });

  it("fulfils a pending VRF request from the page and the purchase is revealed", async () => {
    await control("POST", "/mystery/custodial/fund", { key: emu.key("demo"), external_user_id: "ui-user", usdc: "50" });
    const res = await fetch(`${emu.url}/api/v1/mystery/purchase`, { method: "POST", headers: { "x-api-key": emu.key("demo"), "content-type": "application/json", "idempotency-key": "ui-order-1" }, body: JSON.stringify({ tier_id: 1, external_user_id: "ui-user" }) });
    const purchase = ((await res.json()) as { data: { id: number; status: string } }).data;
    expect(purchase.status).toBe("RESERVED");
    await control("POST", "/clock/advance", { ms: 4_000 }); // the relayer sends it: SUBMITTED, its VRF request pending
    const { pending } = await control<{ pending: string[] }>("GET", "/vrf");
    expect(pending).toHaveLength(1);
    await tab("commerce");
    await page.click(`[data-testid="fulfil-${pending[0]}"]`);
    await page.locator('[data-testid="commerce-event"][data-type="purchase.fulfilled"]').first().waitFor();
    const after = ((await (await api("GET", `/api/v1/mystery/purchase/${purchase.id}`)).json()) as { data: { status: string; items: unknown[] } }).data;
    expect(after.status).toBe("FULFILLED");
    expect(after.items.length).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, "commerce.png") });
  });

  it("lists keys and the chain", async () => {
    await tab("keys");
    await page.locator("table tbody tr", { hasText: "demo" }).first().waitFor();
    await page.screenshot({ path: join(SHOTS, "keys.png") });
    await tab("chain");
    await page.locator("table tbody tr", { hasText: "mysteryPool" }).first().waitFor();
    await page.screenshot({ path: join(SHOTS, "chain.png") });
  });
});
