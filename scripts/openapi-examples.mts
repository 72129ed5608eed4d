// Writes contract/examples.json: for every contract operation, one real success answer of the emulator
// (seed 1, manual clock, in-process chain), collected from the scenarios and the conformance suite run
// against it, plus direct calls for what they leave out. The OpenAPI document shows them as examples.
//   npx tsx scripts/openapi-examples.mts
import { writeFileSync } from "node:fs";
import { createEmulator } from "../emulator/index.ts";
import { OPERATIONS, operationMatcher } from "../contract/index.ts";
import { SCENARIOS } from "../scenarios/registry.ts";
import { runScenario } from "../scenarios/run.ts";
import { runSuite, ALL_CHECKS, PROFILES } from "../conformance/index.ts";
import { HttpClient, ControlClient } from "../harness/http.ts";
import { seedRandomness } from "./seeded-random.mts";
import { trimExample, type Example } from "../contract/examples.ts";

seedRandomness(1);
const FILE = new URL("../contract/examples.json", import.meta.url);
const match = operationMatcher(OPERATIONS);
const found = new Map<string, Example>();
/** The key that got each operation's first 2xx: offers and sell-backs belong to the scenario's fresh partner. */
const keyOf = new Map<string, string>();

const emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: 0, vrf: "auto" } });
/** Every answer passes here: the first 2xx of each operation is kept (runs are sequential, so the choice is stable). */
const capture = (async (input: string | URL | Request, init?: RequestInit) => {
  const res = await emu.fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input), emu.url);
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const op = res.status < 300 ? match(method, url.pathname) : null;
  if (op && !found.has(op.id) && (res.headers.get("content-type") ?? "").includes("json")) {
    const body = (await res.clone().json()) as Record<string, unknown>;
    if (body?.success === true) {
      const { success: _s, ...rest } = body;
      const key = new Headers(init?.headers).get("x-api-key");
      if (key) keyOf.set(op.id, key);
      found.set(op.id, trimExample({ status: res.status, ...rest } as Example));
    }
  }
  return res;
}) as typeof fetch;

const keys = Object.fromEntries(emu.keys.map((k) => [k.name, k.key]));
try {
  for (const s of SCENARIOS) {
    try {
      await runScenario(s, { baseUrl: emu.url, keys, chain: emu.chain, rpcUrl: emu.rpcUrl, fetch: capture });
    } catch (e) {
      process.stderr.write(`scenario ${s.name} failed: ${(e as Error).message}\n`);
    }
  }
  const suite = await runSuite(ALL_CHECKS, {
    baseUrl: emu.url,
    partnerKey: emu.key("demo"),
    tenantKey: emu.key("tenant"),
    profiles: [...PROFILES],
    mode: "emulator",
    fetch: capture,
  });
  const outcomes: Record<string, number> = {};
  for (const r of suite.results) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  process.stderr.write(`conformance: ${JSON.stringify(outcomes)}\n`);
  await directCalls(new HttpClient(emu.url, capture), keys);
} finally {
  await emu.close();
}

/** The operations the scenarios and the suite leave out, called once each (ids taken from earlier answers). */
async function directCalls(http: HttpClient, keys: Record<string, string>): Promise<void> {
  type Data = Record<string, unknown>;
  const call = async (
    method: string,
    path: string,
    key: string,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<Data> => {
    const res = await http.call(method, `/api/v1${path}`, { key, body, query });
    if (res.status >= 300) process.stderr.write(`${method} ${path} → ${res.status} ${res.text.slice(0, 200)}\n`);
    return ((res.body as { data?: Data } | null)?.data ?? {}) as Data;
  };
  /** The first item of the list under `field` in a list answer. */
  const first = (data: Data, field: string): Data => ((data[field] as Data[] | undefined) ?? [])[0] ?? {};
  const demo = keys.demo!;
  const tenant = keys.tenant!;
  const user = { external_user_id: "acme-user-1" };
  const hook = first(await call("GET", "/webhooks", demo), "webhooks");
  const hookId = String(hook.id ?? (await call("POST", "/webhooks", demo, { url: "https://example.com/hooks" })).id);
  await call("PATCH", `/webhooks/${hookId}`, demo, { is_active: true });
  await call("PUT", `/webhooks/${hookId}`, demo, { is_active: true });
  await call("GET", "/mystery/catalog/1/odds", demo);
  await call("GET", "/mystery/stats", demo);
  await call("GET", "/mystery/collection", demo, undefined, user);
  await call("GET", "/wallet/ledger", demo, undefined, user);
  await call("GET", "/wallet/deposits", demo, undefined, user);
  await call("POST", "/wallet/deposit-address", demo, user);
  await call("GET", "/mystery/payout-wallet", keyOf.get("revenue.setPayoutWallet") ?? keys["revenue-share"]!);
  await call("GET", "/payout-wallet", keyOf.get("payoutWallet.set") ?? keys["revenue-share"]!);
  const offer = found.get("buyback.create")?.data as Data | undefined;
  await call("GET", "/mystery/buyback", keyOf.get("buyback.create") ?? demo, undefined, {
    token_id: String(offer?.token_id),
  });
  const forPurchase = found.get("buyback.createForPurchase")?.data as Data | undefined;
  await call(
    "GET",
    `/mystery/buyback/${String(forPurchase?.purchase_id)}`,
    keyOf.get("buyback.createForPurchase") ?? demo,
  );
  await call("GET", "/mystery/sellbacks", keyOf.get("sellback.submit") ?? keys["revenue-share"]!);
  const [card] = (found.get("cards.search")?.data as Data[] | undefined) ?? [];
  await call("GET", `/pokemon/cards/${String(card?.id)}/prices`, demo);
  await call("GET", "/grading/certs/psa/68734521", demo);
  await call("GET", "/grading/certs/batch", demo, undefined, { certs: "PSA:68734521,BGS:0012849361" });
  await call("POST", "/grading/certs/batch", demo, { certs: [{ provider: "PSA", cert_number: "68734521" }] });
  // Warehouse: lists, then one of each listed thing.
  await call("GET", "/orders", tenant);
  await call("GET", "/withdrawals", tenant);
  const site = first(await call("GET", "/sites", tenant), "sites");
  await call("GET", `/sites/${String(site.site_id)}`, tenant);
  const invoice = first(await call("GET", "/invoices", tenant), "invoices");
  await call("GET", `/invoices/${String(invoice.invoice_id)}`, tenant);
  await call("GET", "/account", tenant);
  await new ControlClient(http).request("POST", "/warehouse/billing/close", {});
  const report = first(await call("GET", "/reports", tenant), "reports");
  await call("GET", `/reports/${String(report.report_id)}`, tenant);
  await call("GET", "/sla", tenant);
  await call("GET", "/activity", tenant);
  const control = new ControlClient(http);
  const inventory = await call("GET", "/inventory", tenant, undefined, {
    limit: "100",
    type: "all",
    status: "AVAILABLE",
  });
  const cards = ((inventory.cards as Data[] | undefined) ?? []).filter(
    (c) => (c.identity as Data | undefined)?.status === "confirmed" && c.location === "OFFCHAIN",
  );
  const [a, b] = cards.map((c) => String(c.unique_id));
  const pending = ((inventory.cards as Data[] | undefined) ?? []).find(
    (c) => (c.identity as Data | undefined)?.status !== "confirmed",
  );
  await call("POST", "/declared-values", tenant, { unique_id: pending?.unique_id, amount: 4200 });
  await call("GET", "/declared-values", tenant);
  const ex = await control.request<Data>("POST", "/warehouse/exceptions", {
    kind: "damaged",
    unique_id: a,
    message: "corner crease",
  });
  await call("GET", "/exceptions", tenant);
  await call("GET", `/exceptions/${String(ex.exception_id)}`, tenant);
  await control.newKey({ kind: "tenant", account_id: "globex" }).then((k) => call("GET", "/info", k));
  const transfer = await call("POST", `/cards/${b}/transfer`, tenant, { to_account_id: "globex", note: "sold" });
  await call("GET", "/card-transfers", tenant);
  await call("GET", `/card-transfers/${String(transfer.transfer_id)}`, tenant);
  const order = first(await call("GET", "/orders", tenant), "orders");
  await call("POST", "/service-credits", tenant, { order_id: order.order_id, reason: "missed SLA" });
  await call("GET", "/service-credits", tenant);
  const shipment = await call("POST", "/inbound-shipments", tenant, {
    expected_card_count: 1,
    declared_value_per_card: 100,
  });
  const path = `/inbound-shipments/${String(shipment.inbound_shipment_id)}`;
  await call("GET", "/inbound-shipments", tenant);
  await call("GET", path, tenant);
  await call("PATCH", path, tenant, { tracking_number: "1ZNEW", expected_card_count: 5 });
  const attachment = await call("POST", `${path}/attachments`, tenant, {
    filename: "packing-list.pdf",
    content_type: "application/pdf",
  });
  await call("GET", `${path}/attachments`, tenant);
  await call("DELETE", `${path}/attachments/${String(attachment.attachment_id)}`, tenant);
}

const out = Object.fromEntries(OPERATIONS.filter((op) => found.has(op.id)).map((op) => [op.id, found.get(op.id)!]));
const text = `${JSON.stringify(out, null, 2)}\n`;
const missing = OPERATIONS.filter((op) => !found.has(op.id)).map((op) => `${op.id} (${op.method} ${op.path})`);
if (missing.length) process.stderr.write(`no 2xx seen for:\n  ${missing.join("\n  ")}\n`);
writeFileSync(FILE, text);
process.stderr.write(`${Object.keys(out).length} examples, ${text.length} bytes\n`);
