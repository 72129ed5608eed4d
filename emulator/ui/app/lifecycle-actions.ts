import type { Answer } from "./api.ts";

// Which operator actions a record's row offers, read from the lifecycle tables the control plane serves
// (GET /_emulator/lifecycles): those of the triggers its table allows from the record's status that a control
// route fires, in table order. A trigger added to a table (with its control route) gets its button here
// without a change to the page. Pure: test/ui/lifecycle-actions.test.ts runs it on every table and status.

export type Lifecycles = Answer<"lifecycles", "get">["lifecycles"];
export type ServedAction = NonNullable<Lifecycles[number]["statuses"][number]["triggers"][number]["action"]>;

/** A record as the operator views list it: its status, and whatever fields a data condition reads. */
export type Row = { readonly status: string } & Readonly<Record<string, unknown>>;

/**
 * Conditions on a record's data, not its status, that a trigger also needs: kept here, one by one, since the
 * tables speak of statuses only.
 */
const DATA_CONDITIONS: Readonly<Record<string, Readonly<Record<string, (row: Row) => boolean>>>> = Object.freeze({
  "mystery-redemption": Object.freeze({
    // A PREPARED redemption waits for a KYC decision only when its account requires KYC and none was made yet.
    kyc_approved: (row: Row) => row.kyc_status === "PENDING",
    kyc_declined: (row: Row) => row.kyc_status === "PENDING",
  }),
});

/** The actions a row of lifecycle `id` offers in its status (none for a table or status the tables lack). */
export function rowActions(lifecycles: Lifecycles, id: string, row: Row): ServedAction[] {
  const at = lifecycles.find((l) => l.id === id)?.statuses.find((s) => s.status === row.status);
  const conditions = DATA_CONDITIONS[id] ?? {};
  return (at?.triggers ?? []).flatMap((t) =>
    t.action && (!Object.hasOwn(conditions, t.trigger) || conditions[t.trigger]!(row)) ? [t.action] : [],
  );
}
