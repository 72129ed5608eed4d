import type { Services } from "../pipeline/services.ts";

// The request journal: the last JOURNAL_SIZE API calls, in memory, newest
// last, for the dashboard and GET /_emulator/requests. Recording is cheap on
// the hot path: headers are read from the answer already built, bodies are
// kept only while a dashboard is watching (or for error answers), capped at
// BODY_CAP characters, with secrets masked once, here.

export const JOURNAL_SIZE = 1000;
export const BODY_CAP = 16 * 1024;

export interface JournalEntry {
  id: number;
  request_id: string;
  /** Virtual-clock time of the answer. */
  at: string;
  method: string;
  path: string;
  key: string | null;
  key_label: string | null;
  status: number;
  error: string | null;
  credits_cost: number | null;
  credits_remaining: number | null;
  rate_limit_remaining: number | null;
  latency_ms: number;
  request: { headers: Record<string, string>; body: string | null };
  response: { headers: Record<string, string>; body: string | null };
}

const SECRET_HEADERS = new Set(["x-api-key", "payment-signature", "x-payment", "authorization", "x-mystery-signature"]);
const SECRET_FIELDS = /("(?:signing_secret|secret|private_key|signature|receiver_signature|offer_signature|api_key|key)"\s*:\s*")([^"]{4})[^"]*(")/g;

/** `rip_v1_abcd…`: enough to tell keys apart, never the key. */
export const maskKey = (key: string): string => (key.length > 11 ? `${key.slice(0, 11)}…` : "…");

/** Headers with secrets masked (one rule for every view of the journal). */
export function maskHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => (out[k] = SECRET_HEADERS.has(k) ? maskKey(v) : v));
  return out;
}

/** A body with secret fields masked, capped. */
export function maskBody(text: string): string {
  const capped = text.length > BODY_CAP ? `${text.slice(0, BODY_CAP)}… (${text.length - BODY_CAP} more characters)` : text;
  return capped.replace(SECRET_FIELDS, "$1$2…$3");
}

const intOr = (v: string | null): number | null => (v === null || !/^\d+$/.test(v) ? null : Number(v));

export class Journal {
  /** A circular buffer: `next` is where the next entry goes; O(1) per entry whatever the size. */
  private ring: (JournalEntry | undefined)[] = new Array(JOURNAL_SIZE);
  private next = 0;
  private seq = 0;
  private listeners = new Set<(e: JournalEntry) => void>();

  /** Whether bodies are kept: while someone watches the stream. */
  get watching(): boolean {
    return this.listeners.size > 0;
  }

  subscribe(fn: (e: JournalEntry) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  add(e: Omit<JournalEntry, "id">): JournalEntry {
    const entry = { id: ++this.seq, ...e };
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % JOURNAL_SIZE;
    for (const fn of this.listeners) fn(entry);
    return entry;
  }

  /** Entries newest first, filtered. */
  list(f: { key?: string; status?: string; path?: string; limit?: number } = {}): JournalEntry[] {
    const statusOk = (s: number) => !f.status || String(s) === f.status || (/^[1-5]xx$/i.test(f.status) && String(s)[0] === f.status[0]);
    const out: JournalEntry[] = [];
    const limit = f.limit ?? JOURNAL_SIZE;
    for (let i = 1; i <= JOURNAL_SIZE && out.length < limit; i++) {
      const e = this.ring[(this.next - i + JOURNAL_SIZE) % JOURNAL_SIZE];
      if (!e) break;
      if ((!f.key || e.key_label === f.key || e.key === f.key) && statusOk(e.status) && (!f.path || e.path.includes(f.path))) out.push(e);
    }
    return out;
  }
}

const journals = new WeakMap<Services, Journal>();

export function journalOf(s: Services): Journal {
  let j = journals.get(s);
  if (!j) journals.set(s, (j = new Journal()));
  return j;
}

/** Records one API call (called once per answer under /api/v1); reads the answer's body only when it is kept. */
export function record(s: Services, req: Request, reqBody: string | null, res: Response, requestId: string, apiKey: string | null, ms: number): void {
  const j = journalOf(s);
  const keep = j.watching || res.status >= 400;
  const h = res.headers;
  const rec = apiKey && Object.hasOwn(s.store.state.keys, apiKey) ? s.store.state.keys[apiKey] : undefined;
  const at = s.clock.nowIso();
  const base = (body: string | null, error: string | null): Omit<JournalEntry, "id"> => ({
    request_id: requestId,
    at,
    method: req.method,
    path: pathOf(req.url),
    key: apiKey ? maskKey(apiKey) : null,
    key_label: rec ? rec.label : null,
    status: res.status,
    error,
    credits_cost: intOr(h.get("x-credits-cost")),
    credits_remaining: intOr(h.get("x-credits-remaining")),
    rate_limit_remaining: intOr(h.get("x-ratelimit-remaining")),
    latency_ms: Math.round(ms * 100) / 100,
    // Headers and bodies only when kept: reading a request's headers builds a Headers object on node.
    request: { headers: keep ? maskHeaders(req.headers) : {}, body: reqBody === null ? null : maskBody(reqBody) },
    response: { headers: keep ? maskHeaders(h) : {}, body: body === null ? null : maskBody(body) },
  });
  if (!keep) {
    j.add(base(null, null));
    return;
  }
  void res
    .clone()
    .text()
    .then((body) => j.add(base(body, errorCodeOf(body))))
    .catch(() => j.add(base(null, null)));
}

/** The path and query of a URL, without building a URL object. */
function pathOf(url: string): string {
  const i = url.indexOf("/", url.indexOf("//") + 2);
  return i === -1 ? "/" : url.slice(i);
}

/** The machine code of an error envelope (`code` for the warehouse's, else `error`), or null. */
function errorCodeOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { success?: boolean; error?: unknown; code?: unknown };
    return parsed.success === false ? String(parsed.code ?? parsed.error ?? "") : null;
  } catch {
    return null;
  }
}
