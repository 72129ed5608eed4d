import { describe, expect, it } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import type { StateExport } from "../../emulator/index.ts";
import { useEmulator, type Api, type Emulator } from "../helpers.ts";

// Issue 37 items 5 and 13: an import is checked against every slice's full
// schema, records and fields at any depth, before anything changes. Each
// malformed document below was once accepted (or failed after applying) and
// then broke later reads; now each is a 400 invalid_state naming the field,
// the state stays as it was, and every area still answers.

type Doc = StateExport & { state: { areas: Record<string, Record<string, unknown>> } };
type Mutate = (doc: Doc) => void;

const tenants = (d: Doc) => d.state.areas.warehouse!.tenants as Record<string, Record<string, unknown>>;
const northwind = (d: Doc) => tenants(d).northwind!;
const firstCard = (d: Doc) => Object.values(northwind(d).cards as Record<string, Record<string, unknown>>)[0]!;
const wallet = (d: Doc) => d.state.areas["mystery-wallet"]!;
const mysterySlice = (d: Doc) => d.state.areas.mystery!;
const acmeUser = (d: Doc) =>
  (mysterySlice(d).end_users as Record<string, Record<string, Record<string, unknown>>>).acme!["acme-user-1"]!;
const setProtoEntry = (rec: object, value: unknown) =>
  Object.defineProperty(rec, "__proto__", { value, enumerable: true, writable: true, configurable: true });

/** The issue's own cases, then more made by mutating a real export. */
export const MALFORMED: Array<[string, Mutate, RegExp]> = [
  [
    'deposit_scan_block "abc"',
    (d) => void (wallet(d).deposit_scan_block = "abc"),
    /mystery-wallet\.deposit_scan_block/,
  ],
  ['deposit_scan_block "12.5"', (d) => void (wallet(d).deposit_scan_block = "12.5"), /deposit_scan_block/],
  ["a __proto__ tenant {}", (d) => void setProtoEntry(tenants(d), {}), /warehouse\.tenants\.__proto__/],
  ["a tenant's cards null", (d) => void (northwind(d).cards = null), /tenants\.northwind\.cards/],
  ["a card with identity null", (d) => void (firstCard(d).identity = null), /\.identity/],
  ['a tenant\'s orders "x"', (d) => void (northwind(d).orders = "x"), /tenants\.northwind\.orders/],
  ["a card's status unknown", (d) => void (firstCard(d).status = "LOST"), /\.status/],
  ["a card's received_at not a time", (d) => void (firstCard(d).received_at = "yesterday"), /\.received_at/],
  ["a card's rev fractional", (d) => void (firstCard(d).rev = 1.5), /\.rev/],
  ["a tenant without activity", (d) => void delete northwind(d).activity, /tenants\.northwind\.activity/],
  ["an unknown field on a tenant", (d) => void (northwind(d).surprise = 1), /tenants\.northwind/],
  ["an end user's balance not micros", (d) => void (acmeUser(d).balance_micros = "1e6"), /balance_micros/],
  ["an end user's balance past uint256", (d) => void (acmeUser(d).balance_micros = "9".repeat(80)), /balance_micros/],
  ["an end user's wallet not an address", (d) => void (acmeUser(d).wallet_address = "0x12"), /wallet_address/],
  ["a ledger entry that is not an object", (d) => void (wallet(d).entries = [7]), /mystery-wallet\.entries\.0/],
  ["a deposit address keyed __proto__", (d) => void setProtoEntry(wallet(d).addresses!, 5), /addresses\.__proto__/],
  ["the relayer switch unknown", (d) => void (mysterySlice(d).relayer = "maybe"), /mystery\.relayer/],
  ["instant purchases null", (d) => void (d.state.areas.instant!.purchases = null), /instant\.purchases/],
  ["instant events holding null", (d) => void (d.state.areas.instant!.events = [null]), /instant\.events\.0/],
  [
    "a webhook timeout of a day",
    (d) => void (d.state.areas.webhooks!.settings = { attempt_timeout_ms: 86_400_000_000 }),
    /webhooks\.settings\.attempt_timeout_ms/,
  ],
  [
    "a credit account's free_period past 9999",
    (d) => void (Object.values(d.state.credits)[0]!.free_period = "10000-01"),
    /free_period/,
  ],
  ["a key created_at that is not a time", (d) => void (Object.values(d.state.keys)[0]!.created_at = "x"), /created_at/],
  ["an unknown area", (d) => void (d.state.areas.nonsense = {}), /areas\.nonsense/],
  [
    "an idempotency record without a status",
    (d) =>
      void (d.state.areas.idempotency = {
        records: { k: { fingerprint: "f", data: null, at: "2025-01-01T00:00:00.000Z" } },
      }),
    /idempotency\.records\.k\.status/,
  ],
  [
    "a vision record of the wrong shape",
    (d) => void (d.state.areas.vision = { feedback: { f: { feedback_id: 1 } } }),
    /vision\.feedback\.f/,
  ],
  [
    "a credits topup of the wrong shape",
    (d) => void (d.state.areas.credits = { topups: { t: {} }, by_authorization: {} }),
    /credits\.topups\.t/,
  ],
  [
    "a revenue period start not a time",
    (d) => void (d.state.areas["mystery-revenue"] = { statements: {}, period_start: { acme: "soon" } }),
    /period_start\.acme/,
  ],
];

describe("PUT /_emulator/state: every field at every depth is checked before anything changes", () => {
  let emu: Emulator;
  let api: Api;
  useEmulator((ctx) => ({ emu, api } = ctx));

  /** Touches every area so that each slice is in the export. */
  async function populate(): Promise<void> {
    const partner = emu.key("demo");
    const tenant = emu.key("tenant");
    await api.get("/api/v1/cards").set("X-API-Key", tenant).expect(200);
    for (const path of ["balance", "ledger", "deposits"])
      await api.get(`/api/v1/wallet/${path}?external_user_id=acme-user-1`).set("X-API-Key", partner).expect(200);
    await api.get("/api/v1/webhooks").set("X-API-Key", partner).expect(200);
  }

  /** Reads of every area answer (not a 5xx): the warehouse for both tenants, the wallet, webhooks, Card Data. */
  async function readsStillWork(): Promise<void> {
    const partner = emu.key("demo");
    for (const key of [emu.key("tenant"), emu.key("tenant-readonly")])
      expect((await api.get("/api/v1/cards").set("X-API-Key", key)).status).toBe(200);
    for (const path of ["balance", "ledger", "deposits"])
      expect(
        (await api.get(`/api/v1/wallet/${path}?external_user_id=acme-user-1`).set("X-API-Key", partner)).status,
      ).toBe(200);
    expect((await api.get("/api/v1/webhooks").set("X-API-Key", partner)).status).toBe(200);
    expect((await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", partner)).status).toBe(200);
  }

  for (const [what, mutate, field] of MALFORMED)
    it(`${what}: 400 invalid_state naming the field; state and reads as before`, async () => {
      await populate();
      const before = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
      const doc = structuredClone(before) as Doc;
      mutate(doc);
      const res = await api.put("/_emulator/state").send(JSON.stringify(doc)).set("Content-Type", "application/json");
      const body = expectError(res, 400, "invalid_state");
      expect(body.message).toMatch(field);
      const after = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
      expect(after.state).toEqual(before.state);
      expect(after.now).toBe(before.now);
      await readsStillWork();
    });

  it("a real export (every slice in use) still imports and reads answer", async () => {
    await populate();
    const doc = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
    const res = await api.put("/_emulator/state").send(doc).expect(200);
    expect(res.body.data.imported).toBe(true);
    await readsStillWork();
  });
});
