import { ok, created } from "../pipeline/route.ts";
import { badRequest, notFound } from "../pipeline/errors.ts";
import { balanceOf, monthOf, newAccount, settle, nextResetAt } from "../pipeline/metering.ts";
import { makeKey } from "../../fixtures/keys.ts";
import {
  ALL_SCOPES,
  DEFAULT_PARTNER_RATE_LIMIT_PER_MIN,
  DEFAULT_RATE_LIMIT_PER_MIN,
  FRESH_CALLS_PER_MIN,
  LEGACY_SCOPES,
  PARTNER_SCOPES,
  TENANT_SCOPES,
} from "../state/plans.ts";
import type { CreditAccount, KeyKind, KeyRecord } from "../state/schema.ts";
import { defineControl, type ControlSpec } from "./route.ts";
import { later, z } from "../pipeline/schema.ts";
import { badInput, flag, missing, oneOf, opt, text } from "./schemas.ts";
import type { FaultSpec } from "../pipeline/faults.ts";
import { own } from "../state/own.ts";
import { isClockTime, MAX_TIME_MS, TIME_RANGE_TEXT } from "../clock/bounds.ts";
import type { Services } from "../pipeline/services.ts";
import { fixtureNames, keyNamed } from "./account.ts";
import { isoOf } from "../../contract/time.ts";
import { COUNTERS } from "../state/ids.ts";

/** `name` is given for fixture keys (demo, revenue-share, tenant, …), so tools can find them by name. */
export function keyView(k: KeyRecord, balance?: CreditAccount, name?: string, month?: string) {
  return {
    ...(name ? { name } : {}),
    key: k.key,
    kind: k.kind,
    label: k.label,
    scopes: k.scopes,
    ...(k.billing_model ? { billing_model: k.billing_model } : {}),
    account_id: k.account_id,
    rate_limit_per_min: k.rate_limit_per_min,
    // The ceilings in force where the record leaves them to the defaults (older state files).
    partner_rate_limit_per_min: k.partner_rate_limit_per_min ?? DEFAULT_PARTNER_RATE_LIMIT_PER_MIN,
    fresh_per_min: k.fresh_per_min ?? FRESH_CALLS_PER_MIN,
    active: k.active,
    ...(balance
      ? { balance: balance.free + balance.purchased, free_credits: balance.free, purchased_credits: balance.purchased }
      : {}),
    ...(balance && month
      ? { credits_used_this_month: balance.usage[month] ?? 0, requests_this_month: balance.requests[month] ?? 0 }
      : {}),
  };
}

const DEFAULT_SCOPES: Record<KeyKind, readonly string[]> = {
  partner: PARTNER_SCOPES.filter((s) => s !== "payout:manage"),
  tenant: TENANT_SCOPES,
  legacy: LEGACY_SCOPES,
};

const keyWire = z.object({
  name: z.string().optional(),
  key: z.string(),
  kind: z.enum(["partner", "tenant", "legacy"]),
  label: z.string(),
  scopes: z.array(z.string()),
  billing_model: z.enum(["POOL", "TIER"]).optional(),
  account_id: z.string(),
  rate_limit_per_min: z.number().int().describe("Card Data / warehouse ceiling per minute"),
  partner_rate_limit_per_min: z
    .number()
    .int()
    .describe("Partner commerce (mystery, instant, wallet, webhooks) ceiling per minute"),
  fresh_per_min: z.number().int().describe("fresh=true calls per minute on the cached reads"),
  active: z.boolean(),
  balance: z.number().int().optional(),
  free_credits: z.number().int().optional(),
  purchased_credits: z.number().int().optional(),
  credits_used_this_month: z.number().int().optional().describe("Billed credits in the current UTC month (GET /keys)"),
  requests_this_month: z.number().int().optional().describe("Billed requests in the current UTC month (GET /keys)"),
});

const clockWire = z.object({
  now: z.iso.datetime(),
  now_ms: z.number(),
  mode: z.enum(["realtime", "manual"]),
  pending: z.array(z.object({ id: z.number(), at: z.iso.datetime(), label: z.string() })),
});

const faultWire = z.object({
  id: z.string(),
  hits: z.number().int(),
  match: z.object({ method: z.string().optional(), path: z.string() }),
  status: z.number().int(),
  error: z.string(),
  message: z.string().optional(),
  probability: z.number().optional(),
  times: z.number().int().optional(),
  latency_ms: z.number().optional(),
});

const keyBody = z.object({
  kind: oneOf(["partner", "tenant", "legacy"]),
  scopes: opt(z.array(z.string())),
  balance: opt(z.number().int().min(0)),
  rate_limit_per_min: opt(z.number().int().min(1)),
  partner_rate_limit_per_min: opt(z.number().int().min(1)),
  fresh_per_min: opt(z.number().int().min(1)),
  billing_model: opt(oneOf(["POOL", "TIER"])),
  account_id: opt(text()),
  label: opt(text()),
});

/** The longest injected latency: a day of virtual time (as long as webhook chaos may delay). */
const MAX_LATENCY_MS = 86_400_000;

const faultBody = z.object({
  match: z.object({ path: text(), method: opt(text()) }, { error: "match {method?, path} is required" }),
  status: z.number({ error: "status (400-599) is required" }).int().min(400).max(599),
  error: opt(text()),
  message: opt(text()),
  probability: opt(z.number().min(0).max(1)),
  times: opt(z.number().int().min(1)),
  // A day at most: the latency is a timer on the clock, which must stay inside its range (clock/bounds.ts).
  latency_ms: opt(z.number().int().min(0).max(MAX_LATENCY_MS)),
});

const poolsSchema = z.object({
  balance: z.number().int(),
  free_credits: z.number().int(),
  purchased_credits: z.number().int(),
  free_credits_reset_at: z.iso.datetime(),
});

export const coreControlRoutes: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/health",
    describe: "Liveness and a summary (seed, clock, chain, the loaded world: {file, accounts, keys} or null)",
    schema: {
      responses: {
        200: {
          description: "Alive",
          data: z.object({
            status: z.literal("ok"),
            world: z
              .object({
                file: z.string(),
                accounts: z.number().int(),
                keys: z.array(z.string()).meta({ description: "the world's named keys, in file order" }),
              })
              .nullable(),
            // Answered since --state existed; declared so the dashboard's header reads it typed.
            state_file: z
              .object({
                path: z.string(),
                ok: z.boolean(),
                error: z.string().nullable(),
                written_at: z.string().nullable(),
              })
              .nullable()
              .meta({ description: "the --state file's last write (null without one)" }),
          }),
        },
      },
    },
    handle: (c) => ok({ status: "ok", ...c.host.info() }),
  }),
  defineControl({
    method: "GET",
    path: "/keys",
    describe: "Every key with its kind, scopes, credit balance and this month's usage",
    schema: { responses: { 200: { description: "Every key", data: z.object({ keys: z.array(keyWire) }) } } },
    handle: (c) => {
      const { store, clock } = c.services;
      const names = fixtureNames(c.services);
      const keys = Object.values(store.state.keys).map((k) => {
        const acct = k.kind === "legacy" ? undefined : store.state.credits[k.key];
        // Settled on a copy: a read shows the monthly reset without writing it (an export before and after agree).
        return keyView(k, acct ? settle({ ...acct }, clock.now()) : undefined, names.get(k.key), monthOf(clock.now()));
      });
      return ok({ keys });
    },
  }),
  defineControl({
    method: "POST",
    path: "/keys",
    describe:
      "Create a key {kind, scopes?, balance?, rate_limit_per_min? (Card Data/warehouse, 300), partner_rate_limit_per_min? (partner commerce, 240), fresh_per_min? (10), billing_model?, label?}",
    schema: { body: keyBody, responses: { 201: { description: "The new key", data: keyWire }, 400: badInput } },
    handle: (c) => {
      const { store, clock } = c.services;
      const b = c.input.body;
      const kind: KeyKind = b.kind;
      const scopes = b.scopes ?? [...DEFAULT_SCOPES[kind]];
      const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
      if (unknown.length) throw badRequest("invalid_value", `unknown scopes: ${unknown.join(", ")}`);
      const model = b.billing_model;
      if (model && kind !== "partner") throw badRequest("invalid_value", "billing_model applies to partner keys only");
      const n = store.nextId(COUNTERS.controlKey);
      const record: KeyRecord = {
        key: makeKey(store.state.seed, `control-${n}`),
        kind,
        label: b.label ?? `${kind} key #${n}`,
        scopes,
        ...(kind === "partner" ? { billing_model: model ?? "TIER" } : {}),
        account_id: b.account_id ?? (kind === "tenant" ? "northwind" : kind === "legacy" ? "legacy" : `partner-${n}`),
        rate_limit_per_min: b.rate_limit_per_min ?? DEFAULT_RATE_LIMIT_PER_MIN,
        ...(b.partner_rate_limit_per_min !== undefined
          ? { partner_rate_limit_per_min: b.partner_rate_limit_per_min }
          : {}),
        ...(b.fresh_per_min !== undefined ? { fresh_per_min: b.fresh_per_min } : {}),
        active: true,
        created_at: clock.nowIso(),
      };
      store.state.keys[record.key] = record;
      if (kind !== "legacy") store.state.credits[record.key] = newAccount(clock.now(), b.balance);
      return created(keyView(record, store.state.credits[record.key]));
    },
  }),
  defineControl({
    method: "POST",
    path: "/reset",
    describe: "Back to the seeded fixtures (and the chain to its post-deploy snapshot)",
    schema: { responses: { 200: { description: "Reset", data: flag("reset") } } },
    handle: async (c) => {
      await c.host.reset();
      return ok({ reset: true });
    },
  }),
  defineControl({
    method: "POST",
    path: "/snapshot",
    describe: "Snapshot state (and chain) → {id}",
    schema: { responses: { 201: { description: "The snapshot's id", data: z.object({ id: z.string() }) } } },
    handle: async (c) => created({ id: await c.host.snapshot() }),
  }),
  defineControl({
    method: "POST",
    path: "/restore",
    describe: "Restore a snapshot {id}",
    schema: {
      body: z.object({ id: text() }),
      responses: {
        200: { description: "Restored", data: z.object({ restored: z.string() }) },
        400: badInput,
        404: missing("snapshot"),
      },
    },
    handle: async (c) => {
      const id = c.input.body.id;
      if (!c.services.store.hasSnapshot(id)) throw notFound(`No snapshot "${id}"`);
      await c.host.restore(id);
      return ok({ restored: id });
    },
  }),
  defineControl({
    method: "GET",
    path: "/state",
    describe: "Export the whole state as JSON, the local chain included (format version 2)",
    schema: {
      responses: {
        200: {
          description: "The state export",
          data: z.object({
            format: z.literal("cardos-emulator-state"),
            version: z.number().int(),
            now: z.number(),
            state: z.object({}),
          }),
        },
      },
    },
    handle: (c) => ok(c.services.store.export(c.services.clock.now())),
  }),
  defineControl({
    method: "PUT",
    path: "/state",
    describe:
      "Import a state export (checked whole, every field of every slice, before anything changes: 400 invalid_state naming the field; the chain is rebuilt from its journal)",
    // The import checks the document itself (format, version, slices) and names what to do.
    schema: {
      body: later(
        z.object({
          format: z.literal("cardos-emulator-state"),
          version: z.number().int(),
          now: z.number(),
          state: z.object({}),
          chain: z.object({}).nullable(),
        }),
      ),
      responses: {
        200: { description: "Imported", data: flag("imported") },
        400: {
          description: "Not a state export of this format",
          codes: ["invalid_value", "invalid_json", "invalid_state"],
        },
      },
    },
    handle: async (c) => {
      await c.host.importState(c.input.body);
      return ok({ imported: true });
    },
  }),
  defineControl({
    method: "GET",
    path: "/clock",
    describe: "Virtual time, mode and pending timers",
    schema: { responses: { 200: { description: "The clock", data: clockWire } } },
    handle: (c) => ok(clockView(c.services.clock)),
  }),
  defineControl({
    method: "POST",
    path: "/clock",
    describe: "Set the clock mode {mode: realtime|manual}",
    schema: {
      body: z.object({ mode: oneOf(["realtime", "manual"]) }),
      responses: { 200: { description: "The clock", data: clockWire }, 400: badInput },
    },
    handle: (c) => {
      c.services.clock.setMode(c.input.body.mode);
      return ok(clockView(c.services.clock));
    },
  }),
  defineControl({
    method: "POST",
    path: "/clock/advance",
    describe:
      "Advance the clock {ms} (or {to: ISO time}), running every due timer; the clock stays at or before 9999-12-31T23:59:59.999Z",
    schema: {
      // Whole ms (a fractional clock would make an export its own import refuses); the range is checked below.
      body: z.object({ ms: opt(z.number().int().min(0)), to: opt(text()) }),
      responses: { 200: { description: "The clock after every due timer ran", data: clockWire }, 400: badInput },
    },
    handle: async (c) => {
      const { clock } = c.services;
      const { to, ms } = c.input.body;
      if (to !== undefined) {
        const t = Date.parse(to);
        if (Number.isNaN(t)) throw badRequest("invalid_value", "to must be an ISO-8601 time");
        if (t < clock.now()) throw badRequest("invalid_value", "the clock never goes backwards");
        if (!isClockTime(t)) throw badRequest("invalid_value", `to must be a time ${TIME_RANGE_TEXT}`);
        await clock.setTime(t);
      } else {
        if (ms === undefined) throw badRequest("invalid_value", "pass {ms} or {to}");
        if (clock.now() + ms > MAX_TIME_MS)
          throw badRequest(
            "invalid_value",
            `ms would take the clock past 9999-12-31T23:59:59.999Z: at most ${MAX_TIME_MS - clock.now()} from now`,
          );
        await clock.advance(ms);
      }
      return ok(clockView(clock));
    },
  }),
  defineControl({
    method: "GET",
    path: "/faults",
    describe: "Injected faults",
    schema: {
      responses: { 200: { description: "Every injected fault", data: z.object({ faults: z.array(faultWire) }) } },
    },
    handle: (c) => ok({ faults: c.services.faults.all() }),
  }),
  defineControl({
    method: "POST",
    path: "/faults",
    describe:
      "Inject a fault {match:{method?, path}, status, error, message?, probability?, times?, latency_ms? (whole ms, at most a day)}",
    schema: { body: faultBody, responses: { 201: { description: "The fault", data: faultWire }, 400: badInput } },
    handle: (c) => created(c.services.faults.add(faultSpec(c.input.body))),
  }),
  defineControl({
    method: "DELETE",
    path: "/faults",
    describe: "Remove every injected fault",
    schema: { responses: { 200: { description: "Cleared", data: flag("cleared") } } },
    handle: (c) => {
      c.services.faults.clear();
      return ok({ cleared: true });
    },
  }),
  defineControl({
    method: "GET",
    path: "/credits/:key",
    describe:
      "A key's credit pools (free, purchased) and next free reset; :key is the value or a fixture key's name (demo, revenue-share, …)",
    schema: {
      params: z.object({ key: z.string() }),
      responses: {
        200: {
          description: "The key's credit pools",
          data: poolsSchema,
        },
        404: missing("metered key"),
      },
    },
    handle: (c) => {
      const { clock } = c.services;
      const acct = settle({ ...meteredAccount(c.services, c.input.params.key) }, clock.now());
      return ok(poolsOf(acct, clock.now()));
    },
  }),
  defineControl({
    method: "POST",
    path: "/credits/:key",
    describe:
      "Grant credits {credits: 1–1,000,000,000} to a key's purchased pool (never expires, like a top-up; :key is the value or a fixture name); answers the pools after",
    schema: {
      params: z.object({ key: z.string() }),
      body: z.object({
        credits: z.number({ error: "credits must be an integer from 1 to 1000000000" }).int().min(1).max(1_000_000_000),
      }),
      responses: {
        200: { description: "The key's credit pools after the grant", data: poolsSchema },
        400: badInput,
        404: missing("metered key"),
      },
    },
    handle: (c) => {
      const { clock } = c.services;
      const acct = meteredAccount(c.services, c.input.params.key);
      settle(acct, clock.now()).purchased += c.input.body.credits;
      return ok(poolsOf(acct, clock.now()));
    },
  }),
];

/** The credit account of a metered key named by value or fixture name, or 404 not_found. */
function meteredAccount(services: Services, given: string): CreditAccount {
  const acct = own(services.store.state.credits, keyNamed(services, given)?.key ?? "");
  if (!acct) throw notFound("No metered key with that value or fixture name");
  return acct;
}

function poolsOf(acct: CreditAccount, now: number) {
  return {
    balance: balanceOf(acct),
    free_credits: acct.free,
    purchased_credits: acct.purchased,
    free_credits_reset_at: nextResetAt(now),
  };
}

function clockView(clock: import("../clock/clock.ts").VirtualClock) {
  return {
    now: clock.nowIso(),
    now_ms: clock.now(),
    mode: clock.mode,
    pending: clock.pending().map((t) => ({ ...t, at: isoOf(t.at) })),
  };
}

function faultSpec(b: z.output<typeof faultBody>): FaultSpec {
  const { match, status } = b;
  return {
    match: { path: match.path, ...(match.method ? { method: match.method } : {}) },
    status,
    error: b.error ?? (status >= 500 ? "internal_error" : "fault"),
    ...(b.message !== undefined ? { message: b.message } : {}),
    ...(b.probability !== undefined ? { probability: b.probability } : {}),
    ...(b.times !== undefined ? { times: b.times } : {}),
    ...(b.latency_ms !== undefined ? { latency_ms: b.latency_ms } : {}),
  };
}
