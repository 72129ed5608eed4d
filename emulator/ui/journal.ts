import { runtimeSlot } from "../pipeline/runtime.ts";
import type { Services } from "../pipeline/services.ts";
import { headerOf } from "../pipeline/envelope.ts";
import { FIXTURE_KEYS, fixtureKeyValue } from "../../fixtures/keys.ts";
import { WEBHOOK_HEADERS } from "../../contract/webhook-signature.ts";
import { isoOf } from "../../contract/time.ts";
import type { JournalBody, JournalEntry } from "./journal-entry.ts";

export type { JournalBody, JournalEntry };

// The request journal: the last JOURNAL_SIZE API calls, in memory, newest
// last, for the dashboard, GET /_emulator/requests and `emu.requests`. Recording
// is cheap on the hot path: headers are read from the answer already built; a
// read's bodies are kept only while a dashboard is watching (or for error
// answers), a write's always (what a partner's test verifies); bodies are
// capped at BODY_CAP characters, with secrets masked once, here.

export const JOURNAL_SIZE = 1000;
export const BODY_CAP = 16 * 1024;

/** Which calls to list or count; every given field must match. */
export interface JournalFilter {
  /** A fixture key's name (`demo`), a whole key, a key's label or its masked form. */
  key?: string;
  method?: string;
  /** A contract operation id (`gacha.purchase`) or a path template (`/webhooks/:id`, with or without `/api/v1`). */
  operation?: string;
  /** `404`, or a class: `4xx`. */
  status?: string;
  /** A substring of the path and query. */
  path?: string;
  /** Virtual-clock milliseconds: answered at or after. */
  since?: number;
  /** Virtual-clock milliseconds: answered at or before. */
  until?: number;
  /** Only calls a stub answered (true) or only the others (false). */
  stubbed?: boolean;
  /** At most this many, newest first (list only). */
  limit?: number;
}

/** What the app knows of a call beside its request and answer: the operation routed to and the stub that answered. */
export interface CallNote {
  operation?: { id: string; path: string };
  stub?: string;
  /** The X-API-Key the route read (null without one), so the journal need not read it again. */
  apiKey?: string | null;
}

const SECRET_HEADERS: ReadonlySet<string> = new Set([
  "x-api-key",
  "payment-signature",
  "x-payment",
  "authorization",
  WEBHOOK_HEADERS.signature.toLowerCase(),
]);
/** A JSON string member (escapes kept): its name and its value. */
const STRING_MEMBER = /"([A-Za-z0-9_$-]*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
/** Names of secrets: ending in key, secret, signature, password, passphrase or token (`signing_secret`, `api_key`, `access_token`). */
const SECRET_NAME =
  /(?:^|[_-])(?:key|secret|signature|password|passphrase|token)$|(?:Key|Secret|Signature|Password|Token)$/i;

/** `rip_v1_abcd…`: enough to tell keys apart, never the key. */
export const maskKey = (key: string): string => (key.length > 11 ? `${key.slice(0, 11)}…` : "…");

/** Headers with secrets masked (one rule for every view of the journal). */
export function maskHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => (out[k] = SECRET_HEADERS.has(k) ? maskKey(v) : v));
  return out;
}

/** A body with secret fields masked (a long value keeps its first 4 characters, a short one none), capped. */
export function maskBody(text: string): string {
  const capped =
    text.length > BODY_CAP ? `${text.slice(0, BODY_CAP)}… (${text.length - BODY_CAP} more characters)` : text;
  return capped.replace(STRING_MEMBER, (whole, name: string, colon: string, value: string) =>
    SECRET_NAME.test(name) ? `"${name}"${colon}"${value.length > 8 ? value.slice(0, 4) : ""}…"` : whole,
  );
}

const keptBody = (text: string | null): { body: string | null; truncated: boolean } =>
  text === null ? { body: null, truncated: false } : { body: maskBody(text), truncated: text.length > BODY_CAP };

/**
 * A write's request body for the journal, read from a clone and only up to BODY_CAP (+1, to know it was cut),
 * so a huge upload is never read twice in full; null at once (nothing to await) for reads and bodiless requests.
 * Read before the app answers, so only a body the pipeline would read too: a declared length within `limit` (a
 * client that declares more waits for the 413 before sending it), or an in-process request without one.
 */
export function requestBodyOf(req: Request, limit: number, inProcess: boolean): Promise<string | null> | null {
  if (req.method === "GET" || req.method === "HEAD" || !req.body) return null;
  const declared = req.headers.get("content-length");
  if (declared === null ? !inProcess : !(Number(declared) <= limit)) return null;
  return readCapped(req);
}

async function readCapped(req: Request): Promise<string | null> {
  const reader = req.clone().body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length <= BODY_CAP) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return null;
  } finally {
    void reader.cancel().catch(() => {});
  }
  return text;
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
  keyName: string | null;
  keyLabel: string | null;
  operation: string | null;
  route: string | null;
  stub: string | null;
  status: number;
  cost: string | null;
  remaining: string | null;
  rateLeft: string | null;
  ms: number;
  /** A write's request body (kept on the hot path too). */
  reqBody: string | null;
}

function entryOf(r: Raw): JournalEntry {
  return {
    id: r.id,
    request_id: r.requestId,
    at: isoOf(r.atMs),
    method: r.method,
    path: pathOf(r.url),
    operation: r.operation,
    route: r.route,
    key: r.apiKey ? maskKey(r.apiKey) : null,
    key_name: r.keyName,
    key_label: r.keyLabel,
    status: r.status,
    stub: r.stub,
    error: null,
    credits_cost: intOr(r.cost),
    credits_remaining: intOr(r.remaining),
    rate_limit_remaining: intOr(r.rateLeft),
    latency_ms: Math.round(r.ms * 100) / 100,
    request: { headers: {}, ...keptBody(r.reqBody) },
    response: { headers: {}, body: null, truncated: false },
  };
}

export class Journal {
  /** A circular buffer: `next` is where the next entry goes; O(1) per entry whatever the size. */
  private ring: (Raw | JournalEntry | undefined)[] = new Array(JOURNAL_SIZE);
  /** Beside each slot, what its formatted entry no longer says: the whole key and the time in milliseconds. */
  private keys: (string | null)[] = new Array(JOURNAL_SIZE);
  private times: number[] = new Array(JOURNAL_SIZE);
  private next = 0;
  /** The fixture keys' names by key, for this emulator's seed (made on the first call). */
  private names: Map<string, string> | null = null;
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

  /**
   * Stores a formatted entry (with the whole key it masks, if any) or the raw references of a call; a raw
   * record is the journal's from then on and is numbered in place (no copy on the hot path).
   */
  add(e: Omit<JournalEntry, "id"> | Raw, apiKey: string | null = "atMs" in e ? e.apiKey : null): void {
    const slot = this.next;
    if ("atMs" in e) {
      e.id = ++this.seq;
      this.ring[slot] = e;
    } else this.ring[slot] = { id: ++this.seq, ...e };
    this.keys[slot] = apiKey;
    this.times[slot] = "atMs" in e ? e.atMs : Date.parse(e.at);
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
  list(f: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const limit = f.limit ?? JOURNAL_SIZE;
    this.each(f, (e) => (out.push(e), out.length < limit));
    return out;
  }

  /** How many entries match (the limit does not apply). */
  count(f: JournalFilter = {}): number {
    let n = 0;
    this.each(f, () => (n++, true));
    return n;
  }

  /** Forgets every entry (DELETE /_emulator/requests, reset); ids keep counting, so a watcher never sees one twice. */
  clear(): number {
    const n = this.count();
    this.ring = new Array(JOURNAL_SIZE);
    this.keys = new Array(JOURNAL_SIZE);
    this.times = new Array(JOURNAL_SIZE);
    this.next = 0;
    return n;
  }

  /** The fixture name of a key of an emulator with this seed, or null. */
  nameOf(seed: number, key: string): string | null {
    this.names ??= new Map(FIXTURE_KEYS.map((k) => [fixtureKeyValue(seed, k), k.name]));
    return this.names.get(key) ?? null;
  }

  /** Visits matching entries newest first while `visit` returns true. */
  private each(f: JournalFilter, visit: (e: JournalEntry) => boolean): void {
    const op = f.operation?.startsWith("/api/v1/") ? f.operation.slice("/api/v1".length) : f.operation;
    const method = f.method?.toUpperCase();
    for (let i = 1; i <= JOURNAL_SIZE; i++) {
      const slot = (this.next - i + JOURNAL_SIZE) % JOURNAL_SIZE;
      const e = this.at(slot);
      if (!e) break;
      const at = this.times[slot]!;
      if (
        (!f.key || e.key_name === f.key || e.key_label === f.key || e.key === f.key || this.keys[slot] === f.key) &&
        (!method || e.method === method) &&
        (!op || e.operation === op || e.route === op) &&
        statusMatches(f.status, e.status) &&
        (!f.path || e.path.includes(f.path)) &&
        (f.since === undefined || at >= f.since) &&
        (f.until === undefined || at <= f.until) &&
        (f.stubbed === undefined || (e.stub !== null) === f.stubbed) &&
        !visit(e)
      )
        return;
    }
  }
}

/** `404` exactly, or a class (`4xx`). */
function statusMatches(want: string | undefined, status: number): boolean {
  return !want || String(status) === want || (/^[1-5]xx$/i.test(want) && String(status)[0] === want[0]);
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
  note: CallNote = {},
): void {
  const j = journalOf(s);
  const rec = apiKey && Object.hasOwn(s.store.state.keys, apiKey) ? s.store.state.keys[apiKey] : undefined;
  const raw: Raw = {
    id: 0,
    requestId,
    atMs: s.clock.now(),
    method: req.method,
    url: req.url,
    apiKey,
    keyName: rec ? j.nameOf(s.options.seed, rec.key) : null,
    keyLabel: rec ? rec.label : null,
    operation: note.operation?.id ?? null,
    route: note.operation?.path ?? null,
    stub: note.stub ?? null,
    reqBody,
    status: res.status,
    cost: headerOf(res, "X-Credits-Cost"),
    remaining: headerOf(res, "X-Credits-Remaining"),
    rateLeft: headerOf(res, "X-RateLimit-Remaining"),
    ms,
  };
  if (!j.watching && res.status < 400 && reqBody === null) return j.add(raw);
  const full = (body: string | null): Omit<JournalEntry, "id"> => {
    const { id: _id, ...e } = entryOf(raw);
    return {
      ...e,
      error: body === null ? null : errorCodeOf(body),
      request: { headers: maskHeaders(req.headers), ...keptBody(reqBody) },
      response: { headers: maskHeaders(res.headers), ...keptBody(body) },
    };
  };
  void res
    .clone()
    .text()
    .then((body) => j.add(full(body), apiKey))
    .catch(() => j.add(full(null), apiKey));
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
