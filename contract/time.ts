// The one formatter of an instant (docs/architecture.md "State, time, events, chain"): every `…_at` the
// wire, the state, a report or a message writes is ISO-8601 in UTC with milliseconds, as Date gives it.
// Pure, like money.ts, so every layer uses it (chain/ and conformance/ may not import emulator/clock/);
// the virtual clock's `nowIso()` is `isoOf(clock.now())`. An eslint rule refuses `.toISOString()`
// anywhere else.

/** An instant (unix ms) as ISO-8601 UTC: `2026-01-15T12:00:00.000Z`. */
export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** The UTC month of an instant, `YYYY-MM`. */
export const isoMonth = (ms: number): string => isoOf(ms).slice(0, 7);

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const isoDay = (ms: number): string => isoOf(ms).slice(0, 10);
