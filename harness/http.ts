// A small HTTP client for checks: JSON in, {status, headers, body} out, and the
// control-plane client used only in emulator mode.

export interface HttpResult {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

export interface CallOptions {
  key?: string | null;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

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
    const res = await this.fetchImpl(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const h: Record<string, string> = {};
    res.headers.forEach((v, k) => (h[k.toLowerCase()] = v));
    return { status: res.status, headers: h, body: parsed, text };
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
    if (res.status >= 300 || !env?.success) throw new Error(`control plane ${method} ${path} → ${res.status}: ${env?.message ?? res.text.slice(0, 200)}`);
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
