import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BodyTooLarge, MAX_ANSWER_BYTES, readBounded, textWithin } from "../contract/index.ts";

// Independent adversaries: a small rewriting HTTP proxy in front of a target
// that corrupts its answers in generic ways no emulator deviation imitates
// (header values changed, fields dropped or retyped, statuses swapped within
// their class, paging flags flipped, envelopes reshaped). The suite, run
// through the proxy, must fail under each one (conformance/suite.test.ts).
// Only /api/v1 answers are touched: the control plane stays honest so the
// suite can still set up its checks.

type Json = Record<string, unknown>;

/** One answer as the proxy may rewrite it. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** Parsed JSON (null when the body is not JSON). */
  body: Json | null;
}

export interface Corruption {
  name: string;
  /** What a conforming service never does. */
  breaks: string;
  apply(a: Answer): void;
}

const isObj = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);
/** The records of a success: `data` itself, its rows, or the rows under its one list field. */
function records(data: unknown): Json[] {
  if (Array.isArray(data)) return data.filter(isObj);
  if (!isObj(data)) return [];
  const lists = Object.values(data).filter(Array.isArray) as unknown[][];
  return lists.length === 1 ? [data, ...lists[0]!.filter(isObj)] : [data];
}
/** Adds `by` to an integer header, when present. */
const shiftHeader = (a: Answer, name: string, by: number) => {
  const v = a.headers[name];
  if (v !== undefined && /^\d+$/.test(v)) a.headers[name] = String(Number(v) + by);
};
const success = (a: Answer) => a.status < 400 && a.body?.success === true;

export const CORRUPTIONS: readonly Corruption[] = [
  {
    name: "ratelimit-remaining-frozen",
    breaks: "X-RateLimit-Remaining counts down",
    apply: (a) => {
      if (a.headers["x-ratelimit-limit"]) a.headers["x-ratelimit-remaining"] = a.headers["x-ratelimit-limit"];
    },
  },
  {
    name: "ratelimit-limit-doubled",
    breaks: "X-RateLimit-Limit is the ceiling in force",
    apply: (a) => {
      const v = a.headers["x-ratelimit-limit"];
      if (v) a.headers["x-ratelimit-limit"] = String(Number(v) * 2);
    },
  },
  {
    name: "ratelimit-reset-in-ms",
    breaks: "X-RateLimit-Reset is unix seconds",
    apply: (a) => {
      const v = a.headers["x-ratelimit-reset"];
      if (v) a.headers["x-ratelimit-reset"] = String(Number(v) * 1000);
    },
  },
  {
    name: "credits-cost-plus-one",
    breaks: "X-Credits-Cost is the route's cost (0 when refunded)",
    apply: (a) => shiftHeader(a, "x-credits-cost", 1),
  },
  {
    name: "credits-remaining-plus-three",
    breaks: "X-Credits-Remaining is the balance after the call",
    apply: (a) => shiftHeader(a, "x-credits-remaining", 3),
  },
  {
    name: "request-id-dropped",
    breaks: "every answer carries X-Request-Id",
    apply: (a) => void delete a.headers["x-request-id"],
  },
  {
    name: "media-type-text",
    breaks: "answers are application/json",
    apply: (a) => void (a.headers["content-type"] = "text/plain; charset=utf-8"),
  },
  {
    name: "field-dropped",
    breaks: "records carry their required fields",
    apply: (a) => {
      if (!success(a)) return;
      for (const r of records(a.body!.data)) {
        const k = Object.keys(r).find((key) => !Array.isArray(r[key]));
        if (k) delete r[k];
      }
    },
  },
  {
    name: "field-retyped",
    breaks: "fields keep their types (numbers and booleans are not strings)",
    apply: (a) => {
      if (!success(a)) return;
      for (const r of records(a.body!.data))
        for (const [k, v] of Object.entries(r)) if (typeof v === "number" || typeof v === "boolean") r[k] = String(v);
    },
  },
  {
    name: "status-2xx-swapped",
    breaks: "a success has its documented status (200, 201, 202)",
    apply: (a) => {
      if (a.status === 201 || a.status === 202) a.status = 200;
      else if (a.status === 200) a.status = 203;
    },
  },
  {
    name: "status-4xx-swapped",
    breaks: "an error has its documented status",
    apply: (a) => {
      const swap: Record<number, number> = { 400: 422, 404: 410, 409: 400, 403: 401, 401: 403, 402: 400 };
      if (swap[a.status]) a.status = swap[a.status]!;
    },
  },
  {
    name: "error-code-shouted",
    breaks: "error codes are spelled as documented",
    apply: (a) => {
      if (a.status >= 400 && typeof a.body?.error === "string")
        a.body.error = a.body.error.toUpperCase().replace(/ /g, "_");
      if (a.status >= 400 && typeof a.body?.code === "string") a.body.code = a.body.code.toUpperCase();
    },
  },
  {
    name: "paging-has-more-flipped",
    breaks: "has_more says whether rows follow",
    apply: (a) => {
      const p = a.body?.pagination;
      if (isObj(p) && typeof p.has_more === "boolean") p.has_more = !p.has_more;
    },
  },
  {
    name: "paging-total-shifted",
    breaks: "total_count counts the collection",
    apply: (a) => {
      if (typeof a.body?.total_count === "number") a.body.total_count += 1;
      const d = a.body?.data;
      if (isObj(d) && typeof d.total === "number") d.total += 1;
    },
  },
  {
    name: "envelope-data-renamed",
    breaks: "a success is {success:true, data}",
    apply: (a) => {
      if (success(a)) {
        a.body!.result = a.body!.data;
        delete a.body!.data;
      }
    },
  },
  {
    name: "envelope-error-nested",
    breaks: "an error is {success:false, message, error}",
    apply: (a) => {
      if (a.status >= 400 && a.body && a.body.success === false)
        a.body = { success: false, error: { code: a.body.code ?? a.body.error, message: a.body.message } };
    },
  },
  {
    name: "envelope-success-flag-dropped",
    breaks: "every envelope carries success",
    apply: (a) => {
      if (a.body) delete a.body.success;
    },
  },
];

export interface RewritingProxy {
  url: string;
  /** The corruption in force (null: answers pass unchanged). */
  use(name: string | null): void;
  /** How many answers the corruption in force changed. */
  touched(): number;
  close(): Promise<void>;
}

const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "host"]);

/** The request's body, at most MAX_ANSWER_BYTES (else an error naming the limit; the rest is not read). */
async function bodyOf(req: IncomingMessage): Promise<Uint8Array> {
  const { bytes, truncated } = await readBounded(req, MAX_ANSWER_BYTES);
  if (truncated) throw new BodyTooLarge("the request body", MAX_ANSWER_BYTES);
  return bytes;
}

/** Starts the proxy on 127.0.0.1 in front of `upstream` (a fetch to the target). */
export async function startRewritingProxy(
  upstream: (url: string, init: RequestInit) => Promise<Response>,
  target: string,
): Promise<RewritingProxy> {
  let active: Corruption | null = null;
  let touched = 0;
  const server: Server = createServer(async (req, res) => {
    try {
      const body = await bodyOf(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && !HOP.has(k)) headers[k] = v;
      const up = await upstream(new URL(req.url ?? "/", target).toString(), {
        method: req.method,
        headers,
        body: body.length ? new Uint8Array(body) : undefined,
      });
      const text = await textWithin(up, MAX_ANSWER_BYTES, "the target's answer");
      const a: Answer = {
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0]!,
        status: up.status,
        headers: {},
        body: null,
      };
      up.headers.forEach((v, k) => {
        if (!HOP.has(k)) a.headers[k] = v;
      });
      try {
        a.body = text ? (JSON.parse(text) as Json) : null;
      } catch {
        a.body = null;
      }
      let out = text;
      if (active && a.path.startsWith("/api/v1/")) {
        const before = JSON.stringify([a.status, a.headers, a.body]);
        active.apply(a);
        if (JSON.stringify([a.status, a.headers, a.body]) !== before) {
          touched++;
          if (a.body !== null) out = JSON.stringify(a.body);
        }
      }
      res.writeHead(a.status, a.headers).end(out);
    } catch (err) {
      res.writeHead(502, { "content-type": "text/plain" }).end(`proxy: ${(err as Error).message}`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    use(name) {
      active = name === null ? null : (CORRUPTIONS.find((c) => c.name === name) ?? null);
      if (name !== null && !active) throw new Error(`unknown corruption ${name}`);
      touched = 0;
    },
    touched: () => touched,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
