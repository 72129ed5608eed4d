import { reachable, type AnyLifecycle } from "../contract/lifecycle.ts";
import { ensure, sameFields } from "./assert.ts";

// Two reads of one record on a live target are taken at different moments: the record may move on between them
// (a purchase fulfilled after it was fetched by id, before it was listed). A check comparing them allows exactly
// the forward progress its lifecycle table allows, and compares field by field two reads that agree on the state.

type Row = Record<string, unknown>;

export interface CrossReads {
  /** The record fetched by id. */
  byId: () => Promise<Row>;
  /** The same record's row in its list. */
  listed: () => Promise<Row>;
  /** Which is read first (the other second, then alternately); by id unless told. */
  first?: "byId" | "listed";
  /** The first read when the check has made it already. */
  firstRead?: Row;
  /** The field holding the state; `status` unless told. */
  status?: string;
}

/**
 * The record `what` fetched by id equals its listed row, field by field, once two reads in a row agree on its
 * state; each read's state must be the previous read's or one its lifecycle `lc` reaches from it. Reads alternate
 * (by id, listed, by id, …) until two agree: at most one read more than the table has states.
 */
export async function sameAcrossReads(lc: AnyLifecycle, reads: CrossReads, what: string): Promise<void> {
  const field = reads.status ?? "status";
  const order = reads.first === "listed" ? (["listed", "byId"] as const) : (["byId", "listed"] as const);
  const label = { byId: "fetched by id", listed: "listed" };
  const state = (r: Row) => String(r[field]);
  let prev = { kind: order[0] as "byId" | "listed", row: reads.firstRead ?? (await reads[order[0]]()) };
  for (let n = 1; ; n++) {
    const kind = order[n % 2]!;
    const row = await reads[kind]();
    const [was, is] = [state(prev.row), state(row)];
    if (was === is) return sameFields(kind === "byId" ? row : prev.row, kind === "byId" ? prev.row : row, what);
    ensure(
      reachable(lc, was, is),
      `${what}: ${field} ${label[prev.kind]} is ${was}, then ${label[kind]} ${is}: not a move the ${lc.name} lifecycle makes from ${was}`,
    );
    ensure(n <= lc.states.length, `${what}: the ${field} kept moving over ${n + 1} reads (last ${is})`);
    prev = { kind, row };
  }
}
