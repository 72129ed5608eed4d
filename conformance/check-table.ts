import { EMULATOR_POWER, needsIn, type Check, type Need } from "./types.ts";

// The table of every check in docs/conformance.md, generated from the registry so it never drifts:
// `npx tsx scripts/conformance-table.mts --write`; conformance/check-table.test.ts fails when it is stale.

export const TABLE_START =
  "<!-- check-table: generated from the check registry (npx tsx scripts/conformance-table.mts --write) -->";
export const TABLE_END = "<!-- /check-table -->";

const NEED: Record<Need, string> = {
  partnerKey: "partner key",
  tenantKey: "tenant key",
  wallet: "wallet",
  revenueShareKey: "TIER key",
  webhookUrl: "webhook URL",
  readOnlyTenantKey: "read-only tenant key",
  legacyKey: "legacy key",
};

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** What a check needs to run, in the words of the CLI's flags. */
export function needsText(c: Check): string {
  if (c.emulatorOnly) return `emulator only: ${EMULATOR_POWER[c.emulatorOnly.power]} (${c.emulatorOnly.what})`;
  const parts = needsIn(c, false).map((n) => NEED[n]);
  if (c.waitMs) parts.push(`time (up to ${c.waitMs / 1000} s)`);
  const where = c.mode === "read-only" ? "read-only" : "sandbox";
  return [where, ...parts].join(", ");
}

export function costText(c: Check): string {
  const parts = [c.credits ? `${c.credits} credits` : "", c.spendUsdc ? `${c.spendUsdc} USDC` : ""].filter(Boolean);
  return parts.length ? parts.join(", ") : "free";
}

export function checkTable(checks: readonly Check[]): string {
  const rows = checks.map((c) => `| \`${c.id}\` | ${cell(c.title)} | ${cell(needsText(c))} | ${costText(c)} |`);
  return (
    ["| Check | What it proves | What it needs | Cost (at most) |", "|---|---|---|---|", ...rows].join("\n") + "\n"
  );
}

/** `doc` with the text between the markers replaced by `table`. */
export function withCheckTable(doc: string, table: string): string {
  const a = doc.indexOf(TABLE_START);
  const b = doc.indexOf(TABLE_END);
  if (a === -1 || b < a) throw new Error("docs/conformance.md has no check-table markers");
  return `${doc.slice(0, a + TABLE_START.length)}\n\n${table}\n${doc.slice(b)}`;
}
