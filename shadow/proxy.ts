import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createEmulator,
  listenerPolicy,
  refuseNodeRequest,
  type Emulator,
  type EmulatorOptions,
} from "../emulator/index.ts";
import {
  MAX_ANSWER_BYTES,
  OPERATIONS,
  operationMatcher,
  readBounded,
  textWithin,
  type Operation,
} from "../contract/index.ts";
import { compareRead, parseBody, type Answer } from "./compare.ts";
import { contractDifferences } from "./contract.ts";
import { DriftLog, type Sample } from "./report.ts";
import { maskSample } from "./mask.ts";
import { Recorder } from "./record.ts";
import { driftPanel } from "./panel.ts";

// The shadow proxy: every request goes to the upstream, whose answer the client receives; a read
// (GET) also goes to an in-process emulator and the two answers are compared; a write is sent to the
// emulator only with `mirrorWrites` (and a key named for it), else its upstream answer is held to
// the contract alone. The comparison runs after the client has its answer, so the proxy adds no
// wait beyond the upstream's.

export interface ShadowOptions {
  /** The upstream's base URL (the sandbox); requests keep their path and query under it. */
  upstream: string;
  /** Sent as X-API-Key on every upstream request (replacing the client's). */
  upstreamKey: string;
  /** The emulator to compare with: one already running (in-process), or options to start one. */
  emulator?: Emulator | EmulatorOptions;
  /** The key the emulator is called with: a fixture key's name or a key (default: demo). */
  emulatorKey?: string;
  /**
   * Send writes to the emulator too (with `emulatorKey`, which must then be given) and compare the two
   * answers as reads are; without it a write is sent once, to the upstream.
   */
  mirrorWrites?: boolean;
  /** Listen on 127.0.0.1:port (0 = any free port). */
  port?: number;
  /**
   * Host names answered besides loopback names and IP addresses (`.name`: and its subdomains); other
   * Hosts, and requests from web pages of other origins, get 403 (the proxy spends the upstream key).
   */
  allowedHosts?: string[];
  /**
   * Serve the emulator this starts (not one passed in) on 127.0.0.1:dashboardPort (0 = any free port), so its
   * dashboard shows the drift report live (the Reports tab); omitted: in-process only.
   */
  dashboardPort?: number;
  /** Keep the masked upstream answers of reads here, one file per request (replayable). */
  record?: string;
  /** Called after each request has been compared (or checked); `n` counts them. */
  onSettled?: (n: number) => void;
}

export interface Shadow {
  url: string;
  emulator: Emulator;
  log: DriftLog;
  /** Resolves once every request received so far has been compared. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const matchOperation = operationMatcher(OPERATIONS);
/** Hop-by-hop and transport headers, never passed on (the body is re-sent whole and decoded). */
const HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "upgrade",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "accept-encoding",
  "x-api-key",
]);

function forwardHeaders(req: IncomingMessage, key: string): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined && !HOP.has(k)) h.set(k, Array.isArray(v) ? v.join(", ") : v);
  h.set("x-api-key", key);
  return h;
}

/** The app's request body, at most MAX_ANSWER_BYTES of it (null past that: the rest is not read). */
async function readBody(req: IncomingMessage): Promise<ArrayBuffer | null> {
  const { bytes, truncated } = await readBounded(req, MAX_ANSWER_BYTES);
  return truncated ? null : (bytes.slice().buffer as ArrayBuffer);
}

const headersOf = (res: Response): Record<string, string> =>
  Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));

async function answerOf(res: Response): Promise<Answer> {
  return { status: res.status, headers: headersOf(res), text: await textWithin(res, MAX_ANSWER_BYTES, "the answer") };
}

function send(res: ServerResponse, a: Answer): void {
  const headers = Object.fromEntries(Object.entries(a.headers).filter(([k]) => !HOP.has(k)));
  res.writeHead(a.status, headers);
  res.end(a.text);
}

export class ShadowOptionsError extends Error {}

export async function startShadow(o: ShadowOptions): Promise<Shadow> {
  // A write reaches the emulator only on purpose: the key it is made with is named, never the default.
  if (o.mirrorWrites && !o.emulatorKey)
    throw new ShadowOptionsError("mirrorWrites needs emulatorKey: the key the writes are made with on the emulator");
  const upstream = new URL(o.upstream);
  const base = upstream.href.replace(/\/$/, "");
  const ownEmulator = !o.emulator || !("fetch" in o.emulator);
  const emuOptions: EmulatorOptions = { ...((o.emulator as EmulatorOptions | undefined) ?? { chain: false }) };
  if (o.dashboardPort !== undefined) emuOptions.port = o.dashboardPort;
  const emu = ownEmulator ? await createEmulator(emuOptions) : (o.emulator as Emulator);
  const emulatorKey = emu.keys.find((k) => k.name === (o.emulatorKey ?? "demo"))?.key ?? o.emulatorKey!;
  const secrets = [o.upstreamKey, emulatorKey];
  const log = new DriftLog(base);
  const recorder = o.record ? new Recorder(o.record, secrets) : null;
  const pending = new Set<Promise<void>>();
  let settledCount = 0;
  // The emulator's dashboard shows the report as it grows (Reports tab). A panel the dashboard
  // refuses is a bug of ours to print, never a reason to stop proxying the app's traffic.
  const publish = () => {
    try {
      emu.publishPanel(driftPanel(log.report()));
    } catch (err) {
      console.error("[shadow] the drift panel was not published:", (err as Error).message);
    }
  };
  publish();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const pathAndQuery = req.url ?? "/";
    const body = method === "GET" || method === "HEAD" ? undefined : await readBody(req);
    if (body === null) {
      const message = `The request body is over ${MAX_ANSWER_BYTES} bytes; the shadow proxy stopped reading it`;
      res.writeHead(413, { "content-type": "application/json; charset=utf-8", connection: "close" });
      res.end(JSON.stringify({ success: false, message, error: "payload_too_large" }));
      return;
    }
    let up: Answer;
    try {
      up = await answerOf(
        await fetch(base + pathAndQuery, {
          method,
          headers: forwardHeaders(req, o.upstreamKey),
          body,
          redirect: "manual",
        }),
      );
    } catch (err) {
      log.upstreamFailed();
      const message = `The upstream ${upstream.origin} did not answer: ${(err as Error).message}`;
      send(res, {
        status: 502,
        headers: { "content-type": "application/json; charset=utf-8" },
        text: JSON.stringify({ success: false, message, error: "upstream_unreachable" }),
      });
      return;
    }
    send(res, up);
    const url = new URL(pathAndQuery, "http://shadow.local");
    if (!url.pathname.startsWith("/api/v1/")) return;
    const op = matchOperation(method, url.pathname);
    log.call(op, `${method} ${maskSample(url.pathname, secrets)}`);
    if (!op) return;
    const sample = (emulatorStatus: number | null) => (): Sample => ({
      request: `${method} ${maskSample(pathAndQuery, secrets, 500)}`,
      upstream_status: up.status,
      emulator_status: emulatorStatus,
      upstream_request_id: up.headers["x-request-id"] ?? null,
      upstream_body: maskSample(up.text, secrets),
    });
    if (method !== "GET" && !o.mirrorWrites) {
      log.compared(op, contractDifferences(op, up.status, parseBody(up.text), url.searchParams), sample(null));
      return;
    }
    if (method === "GET") recorder?.keep(op, pathAndQuery, up);
    const emuAnswer = await answerOf(
      await emu.fetch(pathAndQuery, { method, headers: forwardHeaders(req, emulatorKey), body }),
    );
    if (isUnknownRecord(op, up, emuAnswer)) return log.unknownToEmulator(op);
    log.compared(op, compareRead(op, url.searchParams, up, emuAnswer), sample(emuAnswer.status));
  }

  // The proxy sends the real upstream key with every request: a rebound page (foreign Host) or another
  // site's page (a form, a text/plain fetch, an <img>) must never get one sent for it.
  const policy = listenerPolicy({
    allowedHosts: o.allowedHosts,
    hint: { host: (h) => `To allow it, pass allowedHosts: ["${h}"] to startShadow (--allowed-host ${h}).` },
  });
  const server: Server = createServer((req, res) => {
    if (refuseNodeRequest(policy, req, res)) return;
    const done = handle(req, res)
      .catch((err: unknown) => {
        console.error("[shadow]", err);
        if (!res.headersSent)
          send(res, {
            status: 500,
            headers: { "content-type": "application/json; charset=utf-8" },
            text: JSON.stringify({
              success: false,
              message: "The shadow proxy failed on this request",
              error: "shadow_failed",
            }),
          });
      })
      .finally(() => {
        pending.delete(done);
        publish();
        o.onSettled?.(++settledCount);
      })
      // Nothing after the answer may reject unobserved: Node would end the process.
      .catch((err: unknown) => console.error("[shadow]", err));
    pending.add(done);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, "127.0.0.1", () => resolve());
  }).catch(async (err: unknown) => {
    if (ownEmulator) await emu.close(); // nothing left listening when the proxy cannot start
    throw err;
  });
  const port = (server.address() as AddressInfo).port;

  const settled = async () => {
    while (pending.size) await Promise.all([...pending]);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    emulator: emu,
    log,
    settled,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await settled();
      if (ownEmulator) await emu.close();
    },
  };
}

/** A record only the upstream has (the emulator answers 404 to an id it never issued): not drift. */
function isUnknownRecord(op: Operation, up: Answer, emu: Answer): boolean {
  return op.path.includes("/:") && up.status < 300 && emu.status === 404;
}
