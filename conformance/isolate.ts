import type { ControlClient, HttpResult } from "../harness/http.ts";
import type { ScenarioContext } from "../scenarios/types.ts";
import { ensure } from "./assert.ts";
import { runScope } from "../scenarios/fresh.ts";
import { CheckFailure, type CheckContext } from "./types.ts";

// What checks that buy, burn or move time share in emulator mode: they run
// between a snapshot and its restore (later checks see no trace of them), on a
// manual clock (exact due times), and reuse the scenarios' helpers.

/**
 * Runs `body` between a snapshot and its restore; with `manualClock` (the default) a realtime target
 * is paused meanwhile and put back after. The body's own failure says more than a failed clean-up.
 */
export async function inSnapshot<T>(
  control: ControlClient,
  body: () => Promise<T>,
  { manualClock = true } = {},
): Promise<T> {
  const mode = manualClock ? (await control.request<{ mode: string }>("GET", "/clock")).mode : "manual";
  if (mode !== "manual") await control.request("POST", "/clock", { mode: "manual" });
  const { id } = await control.request<{ id: string }>("POST", "/snapshot");
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await body() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  for (const cleanUp of [
    () => control.request("POST", "/restore", { id }),
    () => (mode !== "manual" ? control.request("POST", "/clock", { mode }) : null),
  ]) {
    try {
      await cleanUp();
    } catch (error) {
      if (outcome.ok) outcome = { ok: false, error };
    }
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** `inSnapshot` for a check that needs the control plane (emulator mode). */
export function isolatedCheck<T>(ctx: CheckContext, body: () => Promise<T>): Promise<T> {
  ensure(ctx.control, "needs the control plane (emulator mode)");
  return inSnapshot(ctx.control, body);
}

/** The scenarios' context on a check's clients, so checks reuse scenario helpers (wallets over JSON-RPC, buy and reveal). */
export function scenarioContext(ctx: CheckContext): ScenarioContext {
  return {
    http: ctx.http,
    control: ctx.control!,
    keys: {},
    run: runScope(ctx.control!),
    chain: null,
    rpcUrl: null,
    step: () => {},
    expect(cond, message): asserts cond {
      if (!cond) throw new CheckFailure(message);
    },
    data<T>(res: HttpResult, status: number, what: string): T {
      ensure(res.status === status, `${what}: expected HTTP ${status}, got ${res.status} ${res.text.slice(0, 200)}`);
      return (res.body as { data: T }).data;
    },
  };
}

/** A run-unique id (idempotency and submission keys, end users): a used target keeps every earlier run's. */
export const runUnique = (what: string): string =>
  `conformance-${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
