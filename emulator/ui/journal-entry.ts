// A call as the request journal keeps it, with plain types only: the journal (journal.ts) records these and
// the package's types (emulator/public-types.ts) name them, one declaration for both.

export interface JournalEntry {
  id: number;
  request_id: string;
  /** Virtual-clock time of the answer. */
  at: string;
  method: string;
  path: string;
  /** The contract operation that answered (`gacha.purchase`), null for an unknown path. */
  operation: string | null;
  /** Its path template under /api/v1 (`/webhooks/:id`). */
  route: string | null;
  key: string | null;
  /** The fixture key's name (demo, revenue-share, tenant …); null for other keys. */
  key_name: string | null;
  key_label: string | null;
  status: number;
  /** The stub (POST /_emulator/stubs) that answered instead of the handler, if one did. */
  stub: string | null;
  error: string | null;
  credits_cost: number | null;
  credits_remaining: number | null;
  rate_limit_remaining: number | null;
  latency_ms: number;
  request: JournalBody;
  response: JournalBody;
}

/** One side of a call as kept: masked headers, the masked body (null when not kept) and whether it was cut at the journal's cap (BODY_CAP, 16,384 characters). */
export interface JournalBody {
  headers: Record<string, string>;
  body: string | null;
  truncated: boolean;
}
