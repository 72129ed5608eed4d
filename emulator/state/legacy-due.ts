// State files written before the lifecycle tables (docs/decisions.md, "Lifecycles are tables") named a
// record's due time per area: `relay_at`/`fail_at` (instant purchases), `next_step_at` (mystery purchases,
// redemptions), `next_attempt_at` (buyback forwarding), `label_due_at` (warehouse orders). Read as
// `due_at_ms`, so work waiting in such a file resumes after an upgrade instead of being dropped.

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const isDue = (v: unknown): v is number | null => v === null || (typeof v === "number" && Number.isFinite(v));
const SINGLE = ["next_step_at", "next_attempt_at", "label_due_at"] as const;

function upgradeRecord(r: Rec): void {
  if ("due_at_ms" in r) return;
  if (isDue(r.fail_at) || isDue(r.relay_at)) {
    // A submitted purchase waits for its open timeout; a held one for its relay.
    const due = r.status === "SUBMITTED" ? r.fail_at : r.relay_at;
    r.due_at_ms = isDue(due) ? due : null;
    delete r.fail_at;
    delete r.relay_at;
    return;
  }
  for (const key of SINGLE)
    if (key in r && isDue(r[key])) {
      r.due_at_ms = r[key];
      delete r[key];
      return;
    }
}

/** Renames the legacy due-time fields in place, in every record under the areas (any depth up to 4). */
export function upgradeLegacyDueTimes(areas: unknown, depth = 4): void {
  if (!isRec(areas) || depth < 0) return;
  for (const value of Object.values(areas)) {
    if (!isRec(value)) continue;
    upgradeRecord(value);
    upgradeLegacyDueTimes(value, depth - 1);
  }
}
