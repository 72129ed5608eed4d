// A small HTTP client for checks: JSON in, {status, headers, body} out, and the
// control-plane client used only in emulator mode.

import { MAX_ANSWER_BYTES, textWithin } from "../contract/index.ts";

export interface HttpResult {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

/** One request and its answer, as a client observer sees it (for validation and records). */
export interface Exchange {
  method: string;
  /** The URL called (path and query). */
  url: URL;
  requestHeaders: Record<string, string>;
  /** The body sent, as text (undefined when none). */
  requestBody: string | undefined;
  result: HttpResult;
  /** Wall time of the call in ms. */
  ms: number;
  /** performance.now() when the call was sent (calls that overlap have no order). */
  startedAt: number;
}

/** Sees every answer a client receives; may throw to fail the call (conformance checks do). */
export type Observer = (x: Exchange) => void;

export interface CallOptions {
  key?: string | null;
  query?: Record<string, string | number>;
  body?: unknown;
  /** A multipart/form-data body instead of JSON (e.g. an image upload). */
  form?: FormData;
  headers?: Record<string, string>;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly observer?: Observer,
    private readonly paceMs = 0,
  ) {}

  /** The same target, with every answer shown to `observer` (e.g. one per conformance check). */
  observed(observer: Observer): HttpClient {
    return new HttpClient(this.baseUrl, this.fetchImpl, observer, this.paceMs);
  }

  /**
   * The same target, waiting out a 429 rate_limited (its Retry-After, up to `maxWaitMs`) and
   * repeating the call: a partner's key is shared with its own traffic and earlier runs, which
   * no client can reset. Both answers are shown to the observer.
   */
  paced(maxWaitMs: number): HttpClient {
    return new HttpClient(this.baseUrl, this.fetchImpl, this.observer, maxWaitMs);
  }

  async call(method: string, path: string, opts: CallOptions = {}): Promise<HttpResult> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
    if (opts.key) headers["x-api-key"] = opts.key;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] = "application/json";
    }
    const t0 = performance.now();
    // A form sets its own multipart Content-Type (with the boundary); the record shows its size only.
    const res = await this.fetchImpl(url, { method, headers, body: opts.form ?? body });
    if (opts.form) body = `(multipart form: ${[...opts.form.keys()].join(", ")})`;
    // The service under test (or anything at its URL) may answer without end: read a bounded amount.
    const text = await textWithin(res, MAX_ANSWER_BYTES, `the answer to ${method} ${url.pathname}`);
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const h: Record<string, string> = {};
    res.headers.forEach((v, k) => (h[k.toLowerCase()] = v));
    const result: HttpResult = { status: res.status, headers: h, body: parsed, text };
    this.observer?.({
      method,
      url,
      requestHeaders: headers,
      requestBody: body,
      result,
      ms: performance.now() - t0,
      startedAt: t0,
    });
    const wait = Number(h["retry-after"]) * 1000;
    if (
      res.status === 429 &&
      (parsed as { error?: unknown } | null)?.error === "rate_limited" &&
      wait > 0 &&
      wait <= this.paceMs
    ) {
      await new Promise((r) => setTimeout(r, wait));
      return this.call(method, path, opts);
    }
    return result;
  }

  get(path: string, opts?: CallOptions) {
    return this.call("GET", path, opts);
  }
  post(path: string, opts?: CallOptions) {
    return this.call("POST", path, opts);
  }
}

/** The emulator's /_emulator control plane. */
export class ControlClient {
  constructor(private readonly http: HttpClient) {}

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.http.call(method, `/_emulator${path}`, { body });
    const env = res.body as { success?: boolean; data?: T; message?: string } | null;
    if (res.status >= 300 || !env?.success)
      throw new Error(`control plane ${method} ${path} → ${res.status}: ${env?.message ?? res.text.slice(0, 200)}`);
    return env.data as T;
  }

  async newKey(body: Record<string, unknown>): Promise<string> {
    return (await this.request<{ key: string }>("POST", "/keys", body)).key;
  }

  async advance(ms: number): Promise<void> {
    await this.request("POST", "/clock/advance", { ms });
  }

  /** True when the target answers the control plane. */
  static async detect(http: HttpClient): Promise<boolean> {
    try {
      const res = await http.get("/_emulator/health");
      return res.status === 200 && (res.body as { success?: boolean } | null)?.success === true;
    } catch {
      return false;
    }
  }
}
