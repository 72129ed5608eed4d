import {
  MODES,
  EMULATOR_POWER,
  CheckFailure,
  NotApplicable,
  needsIn,
  type Check,
  type CheckResult,
  type Mode,
  type Profile,
  type RequestRecord,
  type WaitClock,
} from "./types.ts";
import { HttpClient, ControlClient, type Exchange } from "../harness/http.ts";
import { openWallet, type TestWallet } from "../harness/wallet.ts";
import type { ReceiverOptions } from "../harness/webhook-receiver.ts";
import type { Hex } from "viem";
import { WireSession } from "./wire.ts";
import { transcriptEntry } from "./redact.ts";
import { DEFAULT_MAX_WAIT_MS } from "./wait.ts";
import { usdcMicros, usdcText } from "./assert.ts";
import { shardChecks, type Shard, type ShardInfo } from "./shard.ts";
import { emulatorView, writesOf, type EmulatorView, type TargetChanges } from "./target-changes.ts";
import { isoOf } from "../contract/time.ts";
import { ruleCoverage, type RuleCoverage } from "./rules.ts";

export interface SuiteOptions {
  baseUrl: string;
  partnerKey?: string;
  tenantKey?: string;
  /** A partner key of the TIER billing model (sell-back, revenue share); emulator mode makes its own. */
  revenueShareKey?: string;
  /** A tenant key with read:inventory only (scope checks); emulator mode makes its own. */
  readOnlyTenantKey?: string;
  /** A legacy unmetered catalog key; emulator mode makes its own. */
  legacyKey?: string;
  profiles: readonly Profile[];
  mode: Mode;
  /** Skip checks whose declared credits would exceed what is left (default: no limit). */
  maxCredits?: number;
  /** Outside emulator mode, the most real time one check may wait (default 180 s). */
  maxWaitMs?: number;
  expectedFailures?: ReadonlySet<string>;
  /** Stop at the first failed or crashed check (the checks after it are not run or reported). */
  bail?: boolean;
  /**
   * A funded test wallet on the target's chain, for commerce checks (they spend real test funds,
   * at most `maxSpendUsdc` in all). In emulator mode without one, a fixture account of the local chain.
   */
  wallet?: WalletOptions;
  /** A receiver the suite exposes for delivery checks (sandbox: the partner's tunnel to this port); emulator mode uses loopback. */
  receiver?: ReceiverOptions;
  /** The clock of real-time waits (default: the wall clock); see CheckContext.time. */
  time?: WaitClock;
  /**
   * Emulator mode: leave the target as the run changed it. By default the suite snapshots an emulator
   * target before the first check and restores it after the last (its clock, keys, credits, chain).
   */
  keepState?: boolean;
  /** Run only this share of the selected checks (`--shard i/n`); `mergeShards` joins the shards' results. */
  shard?: Shard;

  fetch?: typeof fetch;
  onResult?: (result: CheckResult, index: number, total: number) => void;
  onStart?: (check: Check, index: number, total: number) => void;
}

export interface SuiteResult {
  /** The report's heading (default "Conformance"); the receiver check sets its own. */
  title?: string;
  target: string;
  mode: Mode;
  profiles: Profile[];
  started_at: string;
  finished_at: string;
  results: CheckResult[];
  /** What the checks that ran declared they may spend, against the budgets (null: no budget); absent for a run that spends nothing. */
  spent?: Spent;
  /** The kinds of key the run used (never the keys): what a certification bundle records. */
  key_kinds?: string[];
  /** What the run changed on the target (see target-changes.ts). */
  changes?: TargetChanges;
  /** Present when the run was one shard of a split run. */
  shard?: ShardInfo;
  /** The rule inventory's coverage (conformance/rules.ts): how many rules of docs/reference the suite checks. */
  rule_coverage?: RuleCoverage;
}

export interface Spent {
  credits: number;
  max_credits: number | null;
  usdc: number;
  max_spend_usdc: number | null;
}

const rank = (m: Mode) => MODES.indexOf(m);
/** The longest Retry-After the suite waits out outside emulator mode (one rolling window). */
const RATE_LIMIT_WAIT_MS = 61_000;

export interface WalletOptions {
  privateKey: Hex;
  rpcUrl: string;
  maxSpendUsdc: number;
}

/** What running checks against one target shares: the client, the control plane if any, the budgets, the wallet. */
export interface TargetSession {
  http: HttpClient;
  control: ControlClient | null;
  opts: SuiteOptions;
  budget: { left: number };
  /** Test USDC the commerce checks may still spend, in micros (null: no limit). */
  spend: { left: bigint | null };
  /** Declared credits and USDC micros of the checks that ran. */
  spent: { credits: number; micros: bigint };
  /** The test wallet, opened on first use, or why there is none. */
  wallet(): Promise<TestWallet | string>;
  /** Emulator mode: what the run did to the target, as the control plane shows it (set when the run ends). */
  emulatorEffect?: TargetChanges["emulator"];
}

/** Connects to the target: the control plane is used only in emulator mode, when the target answers it. */
export async function openSession(opts: SuiteOptions): Promise<TargetSession> {
  const direct = new HttpClient(opts.baseUrl, opts.fetch);
  const hasControl = opts.mode === "emulator" && (await ControlClient.detect(direct));
  const control = hasControl ? new ControlClient(direct) : null;
  // Without the control plane the keys are the partner's, shared with its own traffic and earlier
  // runs: a 429 is waited out, not failed (no check of these modes expects one).
  const http = control ? direct : direct.paced(RATE_LIMIT_WAIT_MS);
  let wallet: Promise<TestWallet | string> | null = null;
  const open = async (): Promise<TestWallet | string> => {
    if (opts.wallet) return openWallet(opts.wallet.privateKey, opts.wallet.rpcUrl);
    if (!control) return "needs a funded test wallet: --wallet-key, --rpc-url and --max-spend-usdc";
    // The emulator's own chain: its last funded fixture account, which no scenario uses.
    const res = await http.get("/_emulator/chain");
    if (res.status !== 200)
      return "needs the local chain, and the emulator runs without one (GET /_emulator/chain → 503 chain_unavailable)";
    const info = (res.body as { data: { rpcUrl: string | null; accounts: Array<{ private_key: string }> } }).data;
    if (!info.rpcUrl)
      return "signs transactions over JSON-RPC, and the emulator's chain has no rpcUrl (started in-process only)";
    return openWallet(info.accounts.at(-1)!.private_key as Hex, info.rpcUrl);
  };
  return {
    http,
    control,
    opts,
    budget: { left: opts.maxCredits ?? Infinity },
    spend: { left: opts.wallet ? toMicros(opts.wallet.maxSpendUsdc) : control ? null : 0n },
    spent: { credits: 0, micros: 0n },
    wallet: () => (wallet ??= open()),
  };
}

/** Runs one check: its answers validated on arrival (wire.ts), its requests recorded, failures transcribed. */
export async function runCheck(check: Check, session: TargetSession): Promise<CheckResult> {
  const { http, control, opts, budget } = session;
  const notes: string[] = [];
  const t0 = performance.now();
  const wire = new WireSession({ realtime: control === null, ...(opts.time ? { now: () => opts.time!.now() } : {}) });
  const exchanges: Exchange[] = [];
  const requests: RequestRecord[] = [];
  const checkHttp = http.observed((x) => {
    exchanges.push(x);
    requests.push({
      method: x.method,
      path: x.url.pathname + x.url.search,
      status: x.result.status,
      duration_ms: Math.round(x.ms),
      request_id: x.result.headers["x-request-id"] ?? null,
    });
    const failures = wire.observe(x);
    if (failures.length) throw new CheckFailure(failures.map((f) => f.text).join("; "));
    // A broken delivery invariant fails the check at its next request (a receiver's handler cannot throw into it).
    if (deliveryFailures.length) throw new CheckFailure(deliveryFailures.join("; "));
  });
  // Every delivery the check's receivers get is held to the delivery invariants (contract/invariants/deliveries.ts).
  const deliveryFailures: string[] = [];
  const observe = (d: { headers: Record<string, string>; body: string }, url: string) => {
    for (const f of wire.observeDelivery({ url, headers: d.headers, body: d.body })) deliveryFailures.push(f.text);
  };
  const checkControl = control ? new ControlClient(checkHttp) : null;
  const warnings: string[] = [];
  const base = {
    id: check.id,
    profile: check.profile,
    title: check.title,
    rule: check.rule,
    ...(check.guards ? { guards: check.guards } : {}),
    notes,
    warnings,
    requests,
  };
  let result: CheckResult;
  let why = notApplicable(check, opts, control !== null, budget.left);
  let wallet: TestWallet | null = null;
  const needs = needsIn(check, control !== null);
  const spend = needs.includes("wallet") ? toMicros(check.spendUsdc ?? 0) : 0n;
  if (!why && needs.includes("wallet")) {
    const w = await session.wallet();
    if (typeof w === "string") why = w;
    else wallet = w;
    if (!why && session.spend.left !== null && spend > session.spend.left)
      why = `would exceed --max-spend-usdc (needs ${usdcText(spend)}, ${leftText(session.spend.left)} left)`;
  }
  let probeCrash: string | null = null;
  if (!why && check.applicable) {
    // The target itself decides some applicability (e.g. an emulator started without a chain).
    try {
      why = await check.applicable({ http: checkHttp, control: checkControl });
    } catch (err) {
      probeCrash = `applicability probe crashed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  if (why) {
    result = { ...base, outcome: "not_applicable", message: why, duration_ms: 0 };
  } else if (probeCrash) {
    result = { ...base, outcome: "error", message: probeCrash, duration_ms: 0 };
  } else {
    try {
      // In emulator mode each check gets fresh keys, so credit arithmetic and limits are isolated.
      const partnerKey = checkControl
        ? await checkControl.newKey({ kind: "partner", billing_model: "POOL" })
        : (opts.partnerKey ?? "");
      const tenantKey = checkControl ? await checkControl.newKey({ kind: "tenant" }) : (opts.tenantKey ?? "");
      const revenueShareKey =
        checkControl && needs.includes("revenueShareKey")
          ? await checkControl.newKey({ kind: "partner", billing_model: "TIER" })
          : opts.revenueShareKey;
      const readOnlyTenantKey =
        checkControl && needs.includes("readOnlyTenantKey")
          ? await checkControl.newKey({ kind: "tenant", scopes: ["read:inventory"] })
          : opts.readOnlyTenantKey;
      const legacyKey =
        checkControl && needs.includes("legacyKey") ? await checkControl.newKey({ kind: "legacy" }) : opts.legacyKey;
      charge(1);
      await check.run({
        http: checkHttp,
        partnerKey,
        tenantKey,
        ...(revenueShareKey ? { revenueShareKey } : {}),
        ...(readOnlyTenantKey ? { readOnlyTenantKey } : {}),
        ...(legacyKey ? { legacyKey } : {}),
        maxWaitMs: opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
        control: checkControl,
        wallet,
        receiver: opts.receiver ? { ...opts.receiver, observe } : checkControl ? { observe } : null,
        ...(opts.time ? { time: opts.time } : {}),
        note: (t) => notes.push(t),
      });
      if (deliveryFailures.length) throw new CheckFailure(deliveryFailures.join("; "));
      result = { ...base, outcome: "pass", message: "", duration_ms: 0 };
    } catch (err) {
      // The check found out before spending (it throws before buying or calling): give its spend back.
      if (err instanceof NotApplicable) charge(-1);
      if (err instanceof NotApplicable)
        return finish({ ...base, outcome: "not_applicable", message: err.message, duration_ms: 0 });
      const failed = err instanceof CheckFailure || deliveryFailures.length > 0;
      const own =
        err instanceof CheckFailure
          ? err.message
          : `check crashed: ${err instanceof Error ? err.message : String(err)}`;
      // A broken delivery invariant is named first, whatever the check then tripped over.
      const unsaid = deliveryFailures.filter((f) => !own.includes(f));
      const message = [...unsaid, own].join("; ");
      result = { ...base, outcome: failed ? "fail" : "error", message, duration_ms: 0 };
    }
  }
  return finish(result);

  /** Counts the check's declared costs against the budgets (sign -1 gives them back). */
  function charge(sign: 1 | -1): void {
    budget.left -= sign * check.credits;
    if (session.spend.left !== null) session.spend.left -= BigInt(sign) * spend;
    session.spent.credits += sign * check.credits;
    session.spent.micros += BigInt(sign) * spend;
  }

  function finish(r: CheckResult): CheckResult {
    let result = r;
    if ((result.outcome === "fail" || result.outcome === "error") && opts.expectedFailures?.has(check.id))
      result = { ...result, outcome: "expected_failure" };
    warnings.push(...wire.findings.filter((f) => f.level === "warning").map((f) => f.text));
    if (result.outcome !== "pass" && result.outcome !== "not_applicable") {
      const secrets = [opts.partnerKey, opts.tenantKey, ...exchanges.map((x) => x.requestHeaders["x-api-key"])].filter(
        (s): s is string => !!s,
      );
      result.transcript = exchanges.map((x) => transcriptEntry(x, secrets));
    }
    result.duration_ms = Math.round(performance.now() - t0);
    return result;
  }
}

/** Runs the selected checks one after another against a target, and leaves an emulator target as found. */
export async function runSuite(checks: readonly Check[], opts: SuiteOptions): Promise<SuiteResult> {
  const session = await openSession(opts);
  const selected = checks.filter((c) => opts.profiles.includes(c.profile));
  const mine = opts.shard ? shardChecks(selected, opts.shard) : selected;
  const results: CheckResult[] = [];
  const started = isoOf(Date.now());
  const { control } = session;
  // Emulator mode: a snapshot first, restored last, so a run against a working emulator (its clock moved
  // weeks on, hundreds of keys minted) leaves it as found.
  let before: EmulatorView | null = null;
  let snapshot: string | null = null;
  if (control) {
    before = await emulatorView(control);
    if (!opts.keepState) snapshot = (await control.request<{ id: string }>("POST", "/snapshot")).id;
  }
  try {
    for (const [i, check] of mine.entries()) {
      opts.onStart?.(check, i, mine.length);
      const result = await runCheck(check, session);
      results.push(result);
      opts.onResult?.(result, i, mine.length);
      if (opts.bail && (result.outcome === "fail" || result.outcome === "error")) break;
    }
  } finally {
    if (control && before) {
      const after = await emulatorView(control);
      if (snapshot) await control.request("POST", "/restore", { id: snapshot });
      session.emulatorEffect = {
        clock_moved_ms: after.now_ms - before.now_ms,
        keys_added: after.keys - before.keys,
        restored: snapshot !== null,
      };
    }
  }
  const spent: Spent = {
    credits: session.spent.credits,
    max_credits: opts.maxCredits ?? null,
    usdc: Number(usdcText(session.spent.micros)), // a report's figure, read from the exact decimal
    max_spend_usdc: opts.wallet ? opts.wallet.maxSpendUsdc : null,
  };
  const changes: TargetChanges = {
    writes: writesOf(results),
    ...(session.emulatorEffect ? { emulator: session.emulatorEffect } : {}),
  };
  return {
    target: opts.baseUrl,
    mode: opts.mode,
    profiles: [...opts.profiles],
    started_at: started,
    finished_at: isoOf(Date.now()),
    results,
    spent,
    key_kinds: [...(control || opts.partnerKey ? ["partner"] : []), ...(control || opts.tenantKey ? ["tenant"] : [])],
    changes,
    ...(opts.shard ? { shard: { ...opts.shard, checks: selected.map((c) => c.id) } } : {}),
    rule_coverage: ruleCoverage(),
  };
}

/** A declared or given USDC figure (a JS number such as 25 or 12.5) as integer micros, read from its decimal text. */
const toMicros = (usdc: number): bigint => usdcMicros(String(usdc));
/** What is left of a budget: its decimal, or unlimited. */
const leftText = (micros: bigint | null): string => (micros === null ? "unlimited" : usdcText(micros));

/** Why the check cannot run here, before anything is asked of the target (null: it may run). */
export function notApplicable(check: Check, opts: SuiteOptions, hasControl: boolean, budget: number): string | null {
  if (rank(check.mode) > rank(opts.mode)) {
    if (check.emulatorOnly)
      return `needs an emulator target: ${EMULATOR_POWER[check.emulatorOnly.power]} (${check.emulatorOnly.what})`;
    return `needs ${check.mode === "emulator" ? "an" : "a"} ${check.mode} target (running in ${opts.mode} mode)`;
  }
  if (check.mode === "emulator" && !hasControl)
    return "needs the emulator's /_emulator control plane, which the target does not answer";
  const inEmulator = opts.mode === "emulator" && hasControl;
  const needs = needsIn(check, inEmulator);
  if (needs.includes("partnerKey") && !opts.partnerKey && !inEmulator) return "needs --partner-key";
  if (needs.includes("tenantKey") && !opts.tenantKey && !inEmulator) return "needs --tenant-key";
  if (needs.includes("revenueShareKey") && !opts.revenueShareKey && !inEmulator)
    return "needs --revenue-share-key (a partner key of the TIER billing model)";
  if (needs.includes("readOnlyTenantKey") && !opts.readOnlyTenantKey && !inEmulator)
    return "needs --read-only-tenant-key (a tenant key with read:inventory only)";
  if (needs.includes("legacyKey") && !opts.legacyKey && !inEmulator)
    return "needs --legacy-key (a legacy unmetered catalog key)";
  if (needs.includes("webhookUrl") && !opts.receiver && !inEmulator)
    return "needs --webhook-url and --webhook-port (a public URL the target can reach, forwarding to this machine)";
  const maxWait = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (!inEmulator && (check.waitMs ?? 0) > maxWait)
    return `would wait up to ${(check.waitMs ?? 0) / 1000} s in real time; --max-wait is ${maxWait / 1000} s`;
  if (check.credits > budget) return `would exceed --max-credits (needs ${check.credits}, ${budget} left)`;
  return null;
}

/** Exit code 0 only when every scored check passed (n/a and expected failures are not scored). */
export function passed(suite: SuiteResult): boolean {
  return suite.results.every(
    (r) => r.outcome === "pass" || r.outcome === "not_applicable" || r.outcome === "expected_failure",
  );
}
