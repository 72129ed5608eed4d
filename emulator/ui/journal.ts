import { runtimeSlot } from "../pipeline/runtime.ts";
import type { Services } from "../pipeline/services.ts";
import { headerOf } from "../pipeline/envelope.ts";

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

const SECRET_HEADERS: ReadonlySet<string> = new Set([
  "x-api-key",
  "payment-signature",
  "x-payment",
  "authorization",
  "x-mystery-signature",
]);
const SECRET_FIELDS =
  /("(?:signing_secret|secret|private_key|signature|receiver_signature|offer_signature|api_key|key)"\s*:\s*")([^"]{4})[^"]*(")/g;

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
  const capped =
    text.length > BODY_CAP ? `${text.slice(0, BODY_CAP)}… (${text.length - BODY_CAP} more characters)` : text;
  return capped.replace(SECRET_FIELDS, "$1$2…$3");
}

const intOr = (v: string | null): number | null => (v === null || !/^\d+$/.test(v) ? null : Number(v));

/** What the hot path stores for a call whose headers and bodies are not kept: scalars only, formatted when read. */
interface Raw {
  id: number;
  requestId: string;
  atMs: number;
  method: string;
  url: string;
  apiKey: string | null;
  keyLabel: string | null;
  status: number;
  cost: string | null;
  remaining: string | null;
  rateLeft: string | null;
  ms: number;
}

function entryOf(r: Raw): JournalEntry {
  return {
    id: r.id,
    request_id: r.requestId,
    at: new Date(r.atMs).toISOString(),
    method: r.method,
    path: pathOf(r.url),
    key: r.apiKey ? maskKey(r.apiKey) : null,
    key_label: r.keyLabel,
    status: r.status,
    error: null,
    credits_cost: intOr(r.cost),
    credits_remaining: intOr(r.remaining),
    rate_limit_remaining: intOr(r.rateLeft),
    latency_ms: Math.round(r.ms * 100) / 100,
    request: { headers: {}, body: null },
    response: { headers: {}, body: null },
  };
}

export class Journal {
  /** A circular buffer: `next` is where the next entry goes; O(1) per entry whatever the size. */
  private ring: (Raw | JournalEntry | undefined)[] = new Array(JOURNAL_SIZE);
  private next = 0;
  private seq = 0;
  private listeners = new Set<(e: JournalEntry) => void>();
  private bodyWatchers = 0;

  /** Whether bodies are kept: while someone who shows them (a dashboard) watches. */
  get watching(): boolean {
    return this.bodyWatchers > 0;
  }

  /** New entries as they come; `bodies: false` (the terminal's one line per call) keeps the hot path lean. */
  subscribe(fn: (e: JournalEntry) => void, opts: { bodies?: boolean } = {}): () => void {
    const bodies = opts.bodies ?? true;
    this.listeners.add(fn);
    if (bodies) this.bodyWatchers++;
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      this.listeners.delete(fn);
      if (bodies) this.bodyWatchers--;
    };
  }

  /** Stores a formatted entry (tests, imports) or the raw references of a call. */
  add(e: Omit<JournalEntry, "id"> | Omit<Raw, "id">): void {
    const slot = this.next;
    this.ring[slot] = { id: ++this.seq, ...e } as Raw | JournalEntry;
    this.next = (this.next + 1) % JOURNAL_SIZE;
    if (this.listeners.size) {
      const entry = this.at(slot)!;
      for (const fn of this.listeners) fn(entry);
    }
  }

  /** The entry in a slot, formatted once (the references are dropped then). */
  private at(slot: number): JournalEntry | undefined {
    const v = this.ring[slot];
    if (!v || !("atMs" in v)) return v;
    const entry = entryOf(v);
    this.ring[slot] = entry;
    return entry;
  }

  /** Entries newest first, filtered. */
  list(f: { key?: string; status?: string; path?: string; limit?: number } = {}): JournalEntry[] {
    const statusOk = (s: number) =>
      !f.status || String(s) === f.status || (/^[1-5]xx$/i.test(f.status) && String(s)[0] === f.status[0]);
    const out: JournalEntry[] = [];
    const limit = f.limit ?? JOURNAL_SIZE;
    for (let i = 1; i <= JOURNAL_SIZE && out.length < limit; i++) {
      const e = this.at((this.next - i + JOURNAL_SIZE) % JOURNAL_SIZE);
      if (!e) break;
      if (
        (!f.key || e.key_label === f.key || e.key === f.key) &&
        statusOk(e.status) &&
        (!f.path || e.path.includes(f.path))
      )
        out.push(e);
    }
    return out;
  }
}

/** Each emulator's journal, in its runtime. */
const JOURNAL = runtimeSlot("request journal", () => new Journal());

export function journalOf(s: Services): Journal {
  return s.runtime.of(JOURNAL);
}

/**
 * Records one API call (called once per answer under /api/v1). The hot path keeps a few scalars (the
 * credit and rate-limit headers from the answer's header bag); headers and bodies (the answer's read
 * from a clone) only while someone watches, and for error answers.
 */
export function record(
  s: Services,
  req: Request,
  reqBody: string | null,
  res: Response,
  requestId: string,
  apiKey: string | null,
  ms: number,
): void {
  const j = journalOf(s);
  const rec = apiKey && Object.hasOwn(s.store.state.keys, apiKey) ? s.store.state.keys[apiKey] : undefined;
  const raw: Omit<Raw, "id"> = {
    requestId,
    atMs: s.clock.now(),
    method: req.method,
    url: req.url,
    apiKey,
    keyLabel: rec ? rec.label : null,
    status: res.status,
    cost: headerOf(res, "X-Credits-Cost"),
    remaining: headerOf(res, "X-Credits-Remaining"),
    rateLeft: headerOf(res, "X-RateLimit-Remaining"),
    ms,
  };
  if (!j.watching && res.status < 400) return j.add(raw);
  const full = (body: string | null): Omit<JournalEntry, "id"> => {
    const { id: _id, ...e } = entryOf({ id: 0, ...raw });
    return {
      ...e,
      error: body === null ? null : errorCodeOf(body),
      request: { headers: maskHeaders(req.headers), body: reqBody === null ? null : maskBody(reqBody) },
      response: { headers: maskHeaders(res.headers), body: body === null ? null : maskBody(body) },
    };
  };
  void res
    .clone()
    .text()
    .then((body) => j.add(full(body)))
    .catch(() => j.add(full(null)));
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
