import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { apiCall } from "../helpers.ts";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startCheckReceiver, type CheckReceiver } from "../../harness/webhook-receiver.ts";
import { placeOrder, shippable } from "../warehouse/helpers.ts";
import { EVENT_TYPES } from "../../emulator/events/types.ts";

// The dashboard in a real headless Chromium (Debian's package, driven by
// playwright-core; .ci/run installs it when missing): every view is read from
// the control plane and every button is a control route. Screenshots of the
// main views go to docs/screenshots/ (the README shows them) when UPDATE_SCREENSHOTS=1.

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// The README's screenshots are rewritten only when asked (UPDATE_SCREENSHOTS=1), so a test run leaves the
// tree clean; otherwise they go to a temporary folder. Either way each one must be a real PNG of the view.
const SHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(import.meta.dirname, "..", "..", "docs", "screenshots")
  : mkdtempSync(join(tmpdir(), "cardos-dashboard-"));
async function shot(name: string): Promise<void> {
  const png = await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  expect(png.subarray(0, 8).toString("hex"), `${name}.png is a PNG`).toBe("89504e470d0a1a0a");
  expect(png.length, `${name}.png has content`).toBeGreaterThan(10_000);
}

let emu: Emulator;
let browser: Browser;
let page: Page;
let rx: CheckReceiver;
let receiverAnswers = 500;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: false, vrf: "manual" } });
  rx = await startCheckReceiver(() => receiverAnswers);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(60_000); // a loaded machine renders slowly; a hang still fails
  await page.goto(`${emu.url}/_emulator/ui`);
  await page.waitForSelector('body[data-live="1"]'); // the live stream is open
});
afterAll(async () => {
  await browser?.close();
  await rx?.close();
  await emu?.close();
});

const api = (method: string, path: string, body?: unknown, key = emu.key("demo")) =>
  apiCall(request(emu.url), method, path, { "x-api-key": key }, body);
const control = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  ((await apiCall(request(emu.url), method, `/_emulator${path}`, {}, body)).body as { data: T }).data;
/** Switches tabs and waits for the page to show the view (its own signal: `#main[data-view]`). */
const tab = async (name: string) => {
  await page.click(`#tabs button[data-view="${name}"]`);
  await page.locator(`#main[data-view="${name}"]`).waitFor();
};

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
    const { requests } = await control<{ requests: Array<{ path: string; key: string; credits_cost: number }> }>(
      "GET",
      "/requests?path=base1-4",
    );
    expect(requests[0]).toMatchObject({ path: "/api/v1/pokemon/cards/base1-4", credits_cost: 1 });
    expect(requests[0]!.key).not.toBe(emu.key("demo"));
    await shot("requests");
  });

  it("marks an answer a stub gave in the journal", async () => {
    await control("POST", "/stubs", {
      operation: "cards.get",
      match: { params: { id: "base1-2" } },
      status: 503,
      body: { success: false, error: "overloaded", message: "stubbed" },
      times: 1,
    });
    expect((await api("GET", "/api/v1/pokemon/cards/base1-2")).status).toBe(503);
    const row = page.locator('[data-testid="request-row"]', { hasText: "/api/v1/pokemon/cards/base1-2" }).first();
    await row.waitFor();
    expect(await row.locator("td").nth(4).textContent()).toBe("503 stub");
    expect(await row.locator('[data-testid="stubbed"]').getAttribute("title")).toBe("answered by stub_1");
  });

  it("shows a failing webhook's attempts and next retry; advancing the clock from the page delivers it", async () => {
    expect((await api("POST", "/api/v1/webhooks", { url: rx.url, event_types: ["purchase.fulfilled"] })).status).toBe(
      201,
    );
    await tab("webhooks");
    await page.selectOption('[data-testid="event-type"]', "purchase.fulfilled");
    await page.click('[data-testid="trigger-event"]');
    await page.locator('[data-testid="attempt"][data-outcome="failed"]').first().waitFor();
    expect(await page.locator('[data-testid="next-retry"]').count()).toBe(1);
    expect(await page.locator('[data-testid="next-retry"]').textContent()).toContain("attempt 2");
    await shot("webhooks");

    receiverAnswers = 200;
    await tab("clock");
    await page.locator('[data-testid="timers"]').waitFor();
    await shot("clock");
    await page.click('[data-testid="advance-30s"]');
    await tab("webhooks");
    await page.locator('[data-testid="attempt"][data-outcome="delivered"]').first().waitFor();
    expect(rx.deliveries.length).toBe(2);
    expect(await page.locator('[data-testid="next-retry"]').count()).toBe(0);

    // Resend the delivered delivery from its row: one more attempt, same event id, a fresh signature.
    const deliveryId = await page
      .locator('[data-testid="attempt"][data-outcome="delivered"]')
      .first()
      .getAttribute("data-delivery");
    await page.click(`[data-testid="resend-${deliveryId}"]`);
    await expect.poll(() => page.locator(`[data-testid="attempt"][data-delivery="${deliveryId}"]`).count()).toBe(3);
    expect(rx.deliveries.length).toBe(3);
    const [, second, third] = rx.deliveries;
    expect(third!.headers["x-mystery-delivery"]).toBe(second!.headers["x-mystery-delivery"]);
    expect(third!.body).toBe(second!.body);

    // An attempt seen whole: what was sent, signature included, the answer, and a curl replaying it.
    await page.locator('[data-testid="attempt"][data-outcome="failed"]').first().locator("td").first().click();
    const curl = await page.locator('[data-testid="attempt-curl"]').textContent();
    expect(curl).toContain(`curl -X POST '${rx.url}'`);
    expect(curl).toContain(`X-Mystery-Signature: ${rx.deliveries[0]!.headers["x-mystery-signature"]}`);
    expect(await page.locator('[data-testid="attempt-answer"]').textContent()).toMatch(/^HTTP 5\d\d/);
  });

  it("offers every event type the control plane triggers", async () => {
    await tab("webhooks");
    const offered = await page
      .locator('[data-testid="event-type"] option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const { event_types } = await control<{ event_types: string[] }>("GET", "/webhooks");
    expect(offered).toEqual(event_types);
    expect(offered).toEqual([...EVENT_TYPES]);
  });

  it("sets a webhook's delivery chaos from its row and clears it; a bad value is reported, nothing set", async () => {
    await tab("webhooks");
    const { webhooks } = await control<{ webhooks: { id: number; chaos: unknown }[] }>("GET", "/webhooks");
    const id = webhooks[0]!.id;
    await page.fill(`[data-testid="chaos-${id}"]`, '{"duplicate":{"every":2},"delay_ms":1500}');
    await page.click(`[data-testid="chaos-set-${id}"]`);
    await expect
      .poll(
        async () =>
          (await control<{ webhooks: { id: number; chaos: unknown }[] }>("GET", "/webhooks")).webhooks.find(
            (w) => w.id === id,
          )!.chaos,
      )
      .toEqual({ duplicate: { every: 2 }, delay_ms: 1500 });

    await page.fill(`[data-testid="chaos-${id}"]`, '{"delay_ms": -1}');
    await page.click(`[data-testid="chaos-set-${id}"]`);
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^invalid_value: /);
    expect(
      (await control<{ webhooks: { id: number; chaos: unknown }[] }>("GET", "/webhooks")).webhooks.find(
        (w) => w.id === id,
      )!.chaos,
    ).toEqual({ duplicate: { every: 2 }, delay_ms: 1500 });

    await page.click(`[data-testid="chaos-clear-${id}"]`);
    await expect
      .poll(
        async () =>
          (await control<{ webhooks: { id: number; chaos: unknown }[] }>("GET", "/webhooks")).webhooks.find(
            (w) => w.id === id,
          )!.chaos,
      )
      .toBeNull();
  });

  it("fulfils a pending VRF request from the page and the purchase is revealed", async () => {
    await control("POST", "/mystery/custodial/fund", { key: emu.key("demo"), external_user_id: "ui-user", usdc: "50" });
    const res = await apiCall(
      request(emu.url),
      "POST",
      "/api/v1/mystery/purchase",
      { "x-api-key": emu.key("demo"), "idempotency-key": "ui-order-1" },
      { tier_id: 1, external_user_id: "ui-user" },
    );
    const purchase = (res.body as { data: { id: number; status: string } }).data;
    expect(purchase.status).toBe("RESERVED");
    await control("POST", "/clock/advance", { ms: 4_000 }); // the relayer sends it: SUBMITTED, its VRF request pending
    const { pending } = await control<{ pending: string[] }>("GET", "/vrf");
    expect(pending).toHaveLength(1);
    await tab("commerce");
    await page.click(`[data-testid="fulfil-${pending[0]}"]`);
    await page.locator('[data-testid="commerce-event"][data-type="purchase.fulfilled"]').first().waitFor();
    const after = (
      (await api("GET", `/api/v1/mystery/purchase/${purchase.id}`)).body as {
        data: { status: string; items: unknown[] };
      }
    ).data;
    expect(after.status).toBe("FULFILLED");
    expect(after.items.length).toBeGreaterThan(0);
    // the purchase's row: its state and transaction hash, refreshed live
    const row = page.locator(`[data-testid="purchase-row"][data-id="${purchase.id}"]`);
    await page.locator(`[data-testid="purchase-row"][data-id="${purchase.id}"][data-status="FULFILLED"]`).waitFor();
    const tx = (
      (await api("GET", `/api/v1/mystery/purchase/${purchase.id}`)).body as {
        data: { transaction_hash: string };
      }
    ).data.transaction_hash;
    expect(tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await row.locator(`td[title="${tx}"]`).count()).toBe(1);
    await shot("commerce");
  });

  it("flips an operator switch from the page (the relayer) and shows its state", async () => {
    await tab("commerce");
    const before = await control<{ relayer: string }>("GET", "/mystery");
    expect(before.relayer).toBe("on");
    await page.click('[data-testid="toggle-relayer"]');
    await expect.poll(async () => (await control<{ relayer: string }>("GET", "/mystery")).relayer).toBe("off");
    await expect.poll(() => page.locator('[data-testid="toggle-relayer"]').textContent()).toContain("Relayer: off");
    await page.click('[data-testid="toggle-relayer"]');
    await expect.poll(async () => (await control<{ relayer: string }>("GET", "/mystery")).relayer).toBe("on");
  });

  it("funds an end user and makes a custodial instant purchase from the page; the relayer moves it on the clock", async () => {
    await tab("commerce");
    await page.selectOption('[data-testid="custodial-account"]', "acme");
    await page.fill('[data-testid="custodial-user"]', "ui-custodial");
    await page.fill('[data-testid="custodial-usdc"]', "20");
    await page.click('[data-testid="custodial-fund"]');
    const wallet = async () =>
      (
        (await api("GET", "/api/v1/wallet/balance?external_user_id=ui-custodial")).body as {
          data: { wallet: { balance_usdc: string; reserved_usdc: string } };
        }
      ).data.wallet;
    await expect.poll(async () => (await wallet()).balance_usdc).toBe("20.000000");
    expect(await page.inputValue('[data-testid="custodial-user"]')).toBe("ui-custodial"); // kept across the live re-renders
    await page.selectOption('[data-testid="custodial-packet"]', "1");
    await page.click('[data-testid="custodial-instant"]');
    await page.locator('[data-testid="instant-row"][data-status="RESERVED"]').first().waitFor();
    expect((await wallet()).reserved_usdc).toBe("4.990000");
    await control("POST", "/clock/advance", { ms: 2_000 }); // the relayer buys it on chain
    await page.locator('[data-testid="instant-row"][data-status="SUBMITTED"]').first().waitFor();
    expect(await wallet()).toMatchObject({ balance_usdc: "15.010000", reserved_usdc: "0.000000" });
  });

  it("grants credits to a key from the page", async () => {
    await tab("keys");
    const before = (await control<{ purchased_credits: number }>("GET", `/credits/${emu.key("demo")}`))
      .purchased_credits;
    await page.fill('[data-testid="grant-amount-demo"]', "2500");
    await page.click('[data-testid="grant-demo"]');
    await expect
      .poll(
        async () =>
          (await control<{ purchased_credits: number }>("GET", `/credits/${emu.key("demo")}`)).purchased_credits,
      )
      .toBe(before + 2500);
    await expect
      .poll(() => page.locator('[data-testid="key-row"][data-name="demo"] [data-testid="purchased"]').textContent())
      .toBe(String(before + 2500));
  });

  it("lists a tenant's orders and ships one from its row", async () => {
    const st = request(emu.url);
    const key = emu.key("tenant");
    const order = await placeOrder(emu, st, key, await shippable(st, key, 1));
    expect(order.status).toBe("LABEL_PURCHASED");
    await tab("warehouse");
    await page.click(`[data-testid="order-ship-${order.order_id}"]`);
    await page.locator(`[data-testid="order-row"][data-id="${order.order_id}"][data-status="SHIPPED"]`).waitFor();
    const after = await st.get(`/api/v1/orders/${order.order_id}`).set("X-API-Key", key).expect(200);
    expect(after.body.data.status).toBe("SHIPPED");
    // The row's buttons are the triggers the served order table allows from SHIPPED (GET /_emulator/lifecycles).
    const { lifecycles } = await control<{
      lifecycles: { id: string; statuses: { status: string; triggers: { action: { name: string } | null }[] }[] }[];
    }>("GET", "/lifecycles");
    const shipped = lifecycles.find((l) => l.id === "warehouse-order")!.statuses.find((s) => s.status === "SHIPPED")!;
    const offered = shipped.triggers.flatMap((t) => (t.action ? [`order-${t.action.name}-${order.order_id}`] : []));
    expect(offered).toEqual([`order-deliver-${order.order_id}`, `order-return-${order.order_id}`]);
    const row = page.locator(`[data-testid="order-row"][data-id="${order.order_id}"]`);
    expect(await row.locator("button").evaluateAll((bs) => bs.map((b) => b.getAttribute("data-testid")))).toEqual(
      offered,
    );
    await shot("warehouse");
  });

  it("lists keys and the chain", async () => {
    await tab("keys");
    await page.locator("table tbody tr", { hasText: "demo" }).first().waitFor();
    await shot("keys");
    await tab("chain");
    await page.locator('[data-testid="balance-row"][data-label="mysteryPool"]').waitFor();
    // balances are read from the chain: the pool contract's USDC as the stablecoin says
    const { accounts } = await control<{ accounts: Array<{ label: string; address: string; usdc: string }> }>(
      "GET",
      "/chain/balances",
    );
    const pool = accounts.find((a) => a.label === "mysteryPool")!;
    expect(
      await page.locator('[data-testid="balance-row"][data-label="mysteryPool"] [data-testid="usdc"]').textContent(),
    ).toBe(pool.usdc);
    // the latest blocks, newest first, the purchase's transactions among them
    const { blocks } = await control<{ blocks: Array<{ number: string; transactions: string[] }> }>(
      "GET",
      "/chain/blocks?limit=10",
    );
    expect(blocks.length).toBeGreaterThan(1);
    expect(BigInt(blocks[0]!.number)).toBeGreaterThan(BigInt(blocks[1]!.number));
    expect(await page.locator('[data-testid="block-row"]').count()).toBe(blocks.length);
    await shot("chain");
  });
  it("names the loaded world in the header and lists a pending steered reveal on Clock & timers", async () => {
    expect(await page.locator('[data-testid="world"]').textContent()).toBe("No world");
    // An end user no other test buys for: the steer stays pending.
    const body = { tier_id: 1, key: "demo", external_user_id: "dash-steer", band: { min_usd: "2", max_usd: "3" } };
    await control("POST", "/mystery/reveals", body);
    await tab("clock");
    const row = page.locator('[data-testid="reveal-row"][data-area="mystery"]', { hasText: "dash-steer" });
    await row.waitFor();
    expect(await row.textContent()).toContain("tier 1");
  });
});
