import { randomBytes } from "node:crypto";
import { exampleEventData } from "../../contract/event-examples.ts";
import { WEBHOOK_HEADERS } from "../../contract/webhook-signature.ts";
import { REDACTED, redactText } from "../redact.ts";
import type { SuiteResult } from "../runner.ts";
import { CheckFailure, type CheckResult, type TranscriptEntry } from "../types.ts";
import { RECEIVER_CASES, type CaseContext, type ReceiverCase } from "./cases.ts";
import { Probe } from "./probe.ts";
import { post, SIGNATURE_TOLERANCE_MS, type Answer, type Delivery } from "./send.ts";
import { isoOf } from "../../contract/time.ts";

// Runs the receiver check's cases one after another against a partner's
// endpoint and reports them as a suite result, so the conformance reporters
// (console, JUnit, JSON, Markdown, HTML) print them unchanged.

export interface ReceiverCheckOptions {
  url: string;
  secret: string;
  probe?: string;
  /** The service's per-attempt timeout (default 10 s). */
  timeoutMs?: number;
  toleranceMs?: number;
  /** Only these case ids (default: all). */
  only?: readonly string[];
  onResult?: (result: CheckResult, index: number, total: number) => void;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export async function checkReceiver(opts: ReceiverCheckOptions): Promise<SuiteResult> {
  const run = randomBytes(4).toString("hex");
  let seq = 0;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const probe = opts.probe ? new Probe(opts.probe, timeoutMs) : null;
  const cases = RECEIVER_CASES.filter((c) => !opts.only?.length || opts.only.includes(c.id));
  const started = isoOf(Date.now());
  const results: CheckResult[] = [];
  for (const [i, c] of cases.entries()) {
    const result = await runCase(
      c,
      {
        secret: opts.secret,
        toleranceMs: opts.toleranceMs ?? SIGNATURE_TOLERANCE_MS,
        timeoutMs,
        probe,
        event(type, n = ++seq) {
          // Ids unique to this run, so a receiver that keeps what it saw across runs still gets new events.
          return {
            id: `${type}:rc_${run}_${n}`,
            data: exampleEventData(type, { n, now: isoOf(Date.now()) }),
            n,
          };
        },
        send: (d) => post(opts.url, d, timeoutMs),
        note: () => {},
      },
      opts,
    );
    results.push(result);
    opts.onResult?.(result, i, cases.length);
  }
  return {
    title: "Receiver check",
    target: opts.url,
    mode: "sandbox",
    profiles: ["webhooks"],
    started_at: started,
    finished_at: isoOf(Date.now()),
    results,
  };
}

async function runCase(c: ReceiverCase, base: CaseContext, opts: ReceiverCheckOptions): Promise<CheckResult> {
  const notes: string[] = [];
  const exchanges: Array<{ d: Delivery; a: Answer }> = [];
  const ctx: CaseContext = {
    ...base,
    note: (t) => notes.push(t),
    async send(d) {
      const a = await base.send(d);
      exchanges.push({ d, a });
      return a;
    },
  };
  const t0 = performance.now();
  const head = {
    id: `receiver.${c.id}`,
    profile: "webhooks" as const,
    title: c.title,
    rule: c.rule,
    notes,
    warnings: [],
  };
  let result: CheckResult;
  try {
    await c.run(ctx);
    result = { ...head, outcome: "pass", message: "", requests: [], duration_ms: 0 };
  } catch (err) {
    const failed = err instanceof CheckFailure;
    result = {
      ...head,
      outcome: failed ? "fail" : "error",
      message: failed ? err.message : `check crashed: ${err instanceof Error ? err.message : String(err)}`,
      requests: [],
      duration_ms: 0,
    };
    result.transcript = exchanges.map((x) => transcript(x.d, x.a, opts));
  }
  const path = new URL(opts.url).pathname;
  result.requests = exchanges.map(({ a }) => ({
    method: "POST",
    path,
    status: a.status ?? 0,
    duration_ms: a.duration_ms,
    request_id: a.headers["x-request-id"] ?? null,
  }));
  result.duration_ms = Math.round(performance.now() - t0);
  return result;
}

/** The exchange for a failed case's report, without the signature or the secret. */
function transcript(d: Delivery, a: Answer, opts: ReceiverCheckOptions): TranscriptEntry {
  const hide = (h: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(h).map(([k, v]) => [
        k.toLowerCase(),
        k.toLowerCase() === WEBHOOK_HEADERS.signature.toLowerCase() ? REDACTED : v,
      ]),
    );
  return {
    method: "POST",
    path: new URL(opts.url).pathname,
    request_headers: hide(d.headers),
    request_body: redactText(d.body, [opts.secret]),
    status: a.status ?? 0,
    response_headers: hide(a.headers),
    response_body: a.error ?? redactText(a.body, [opts.secret]),
  };
}
