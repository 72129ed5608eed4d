import { ok, created } from "../pipeline/route.ts";
import { badRequest, notFound } from "../pipeline/errors.ts";
import { balanceOf, newAccount, settle, nextResetAt } from "../pipeline/metering.ts";
import { FIXTURE_KEYS, makeKey } from "../../fixtures/keys.ts";
import { ALL_SCOPES, DEFAULT_RATE_LIMIT_PER_MIN, LEGACY_SCOPES, PARTNER_SCOPES, TENANT_SCOPES } from "../state/plans.ts";
import type { KeyKind, KeyRecord } from "../state/schema.ts";
import type { ControlSpec } from "./route.ts";
import { optNumber, optString, optStringArray, reqString } from "./body.ts";
import type { FaultSpec } from "../pipeline/faults.ts";
import { own } from "../state/own.ts";

/** `name` is given for fixture keys (demo, tier, tenant, …), so tools can find them by name. */
export function keyView(k: KeyRecord, balance?: { free: number; purchased: number }, name?: string) {
  return {
    ...(name ? { name } : {}),
    key: k.key,
    kind: k.kind,
    label: k.label,
    scopes: k.scopes,
    ...(k.billing_model ? { billing_model: k.billing_model } : {}),
    account_id: k.account_id,
    rate_limit_per_min: k.rate_limit_per_min,
    active: k.active,
    ...(balance ? { balance: balance.free + balance.purchased, free_credits: balance.free, purchased_credits: balance.purchased } : {}),
  };
}

const DEFAULT_SCOPES: Record<KeyKind, readonly string[]> = {
  partner: PARTNER_SCOPES.filter((s) => s !== "payout:manage"),
  tenant: TENANT_SCOPES,
  legacy: LEGACY_SCOPES,
};

export const coreControlRoutes: ControlSpec[] = [
  {
    method: "GET",
    path: "/health",
    describe: "Liveness and a summary (seed, clock, chain)",
    handle: (c) => ok({ status: "ok", ...c.host.info() }),
  },
  {
    method: "GET",
    path: "/keys",
    describe: "Every key with its kind, scopes and credit balance",
    handle: (c) => {
      const { store, clock } = c.services;
      const fixtureNames = new Map(FIXTURE_KEYS.map((spec) => [makeKey(store.state.seed, spec.name), spec.name]));
      const keys = Object.values(store.state.keys).map((k) => {
        const acct = k.kind === "legacy" ? undefined : store.state.credits[k.key];
        return keyView(k, acct ? settle(acct, clock.now()) : undefined, fixtureNames.get(k.key));
      });
      return ok({ keys });
    },
  },
  {
    method: "POST",
    path: "/keys",
    describe: "Create a key {kind, scopes?, balance?, rate_limit_per_min?, billing_model?, label?}",
    handle: (c) => {
      const { store, clock } = c.services;
      const kind = reqString(c.body, "kind", ["partner", "tenant", "legacy"]) as KeyKind;
      const scopes = optStringArray(c.body, "scopes") ?? [...DEFAULT_SCOPES[kind]];
      const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
      if (unknown.length) throw badRequest("invalid_value", `unknown scopes: ${unknown.join(", ")}`);
      const balance = optNumber(c.body, "balance", { min: 0, integer: true });
      const limit = optNumber(c.body, "rate_limit_per_min", { min: 1, integer: true });
      const model = optString(c.body, "billing_model", ["POOL", "TIER"]);
      if (model && kind !== "partner") throw badRequest("invalid_value", "billing_model applies to partner keys only");
      const account = optString(c.body, "account_id");
      const n = store.nextId("control-key");
      const record: KeyRecord = {
        key: makeKey(store.state.seed, `control-${n}`),
        kind,
        label: optString(c.body, "label") ?? `${kind} key #${n}`,
        scopes,
        ...(kind === "partner" ? { billing_model: (model ?? "TIER") as "POOL" | "TIER" } : {}),
        account_id: account ?? (kind === "tenant" ? "northwind" : kind === "legacy" ? "legacy" : `partner-${n}`),
        rate_limit_per_min: limit ?? DEFAULT_RATE_LIMIT_PER_MIN,
        active: true,
        created_at: clock.nowIso(),
      };
      store.state.keys[record.key] = record;
      if (kind !== "legacy") store.state.credits[record.key] = newAccount(clock.now(), balance);
      return created(keyView(record, store.state.credits[record.key]));
    },
  },
  {
    method: "POST",
    path: "/reset",
    describe: "Back to the seeded fixtures (and the chain to its post-deploy snapshot)",
    handle: async (c) => {
      await c.host.reset();
      return ok({ reset: true });
    },
  },
  {
    method: "POST",
    path: "/snapshot",
    describe: "Snapshot state (and chain) → {id}",
    handle: async (c) => created({ id: await c.host.snapshot() }),
  },
  {
    method: "POST",
    path: "/restore",
    describe: "Restore a snapshot {id}",
    handle: async (c) => {
      const id = reqString(c.body, "id");
      if (!c.services.store.hasSnapshot(id)) throw notFound(`No snapshot "${id}"`);
      await c.host.restore(id);
      return ok({ restored: id });
    },
  },
  {
    method: "GET",
    path: "/state",
    describe: "Export the whole state as JSON, the local chain included (format version 2)",
    handle: (c) => ok(c.services.store.export(c.services.clock.now())),
  },
  {
    method: "PUT",
    path: "/state",
    describe: "Import a state export (the chain is rebuilt from its journal)",
    handle: async (c) => {
      await c.host.importState(c.body);
      return ok({ imported: true });
    },
  },
  {
    method: "GET",
    path: "/clock",
    describe: "Virtual time, mode and pending timers",
    handle: (c) => ok(clockView(c.services.clock)),
  },
  {
    method: "POST",
    path: "/clock",
    describe: "Set the clock mode {mode: realtime|manual}",
    handle: (c) => {
      c.services.clock.setMode(reqString(c.body, "mode", ["realtime", "manual"]) as "realtime" | "manual");
      return ok(clockView(c.services.clock));
    },
  },
  {
    method: "POST",
    path: "/clock/advance",
    describe: "Advance the clock {ms} (or {to: ISO time}), running every due timer",
    handle: async (c) => {
      const { clock } = c.services;
      const to = optString(c.body, "to");
      if (to !== undefined) {
        const t = Date.parse(to);
        if (Number.isNaN(t)) throw badRequest("invalid_value", "to must be an ISO-8601 time");
        if (t < clock.now()) throw badRequest("invalid_value", "the clock never goes backwards");
        await clock.setTime(t);
      } else {
        const ms = optNumber(c.body, "ms", { min: 0 });
        if (ms === undefined) throw badRequest("invalid_value", "pass {ms} or {to}");
        await clock.advance(ms);
      }
      return ok(clockView(clock));
    },
  },
  {
    method: "GET",
    path: "/faults",
    describe: "Injected faults",
    handle: (c) => ok({ faults: c.services.faults.all() }),
  },
  {
    method: "POST",
    path: "/faults",
    describe: "Inject a fault {match:{method?, path}, status, error, message?, probability?, times?, latency_ms?}",
    handle: (c) => created(c.services.faults.add(parseFault(c.body))),
  },
  {
    method: "DELETE",
    path: "/faults",
    describe: "Remove every injected fault",
    handle: (c) => {
      c.services.faults.clear();
      return ok({ cleared: true });
    },
  },
  {
    method: "GET",
    path: "/credits/:key",
    describe: "A key's credit pools (free, purchased) and next free reset",
    handle: (c) => {
      const { store, clock } = c.services;
      const acct = own(store.state.credits, c.params.key);
      if (!acct) throw notFound("No metered key with that value");
      settle(acct, clock.now());
      return ok({ balance: balanceOf(acct), free_credits: acct.free, purchased_credits: acct.purchased, free_credits_reset_at: nextResetAt(clock.now()) });
    },
  },
];

function clockView(clock: import("../clock/clock.ts").VirtualClock) {
  return { now: clock.nowIso(), now_ms: clock.now(), mode: clock.mode, pending: clock.pending().map((t) => ({ ...t, at: new Date(t.at).toISOString() })) };
}

function parseFault(body: Record<string, unknown>): FaultSpec {
  const match = body.match as Record<string, unknown> | undefined;
  if (!match || typeof match !== "object") throw badRequest("invalid_value", "match {method?, path} is required");
  const path = reqString(match, "path");
  const method = optString(match, "method");
  const status = optNumber(body, "status", { min: 400, max: 599, integer: true });
  if (status === undefined) throw badRequest("invalid_value", "status (400-599) is required");
  return {
    match: { path, ...(method ? { method } : {}) },
    status,
    error: optString(body, "error") ?? (status >= 500 ? "internal_error" : "fault"),
    ...(optString(body, "message") ? { message: optString(body, "message") } : {}),
    ...(optNumber(body, "probability", { min: 0, max: 1 }) !== undefined ? { probability: optNumber(body, "probability") } : {}),
    ...(optNumber(body, "times", { min: 1, integer: true }) !== undefined ? { times: optNumber(body, "times") } : {}),
    ...(optNumber(body, "latency_ms", { min: 0 }) !== undefined ? { latency_ms: optNumber(body, "latency_ms") } : {}),
  };
}
