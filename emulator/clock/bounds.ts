// The times the emulator can run at: from the Unix epoch to the end of the
// year 9999. Past that, Date's ISO text gains a sign and six-digit years
// ("+010000-01"), so month labels stop sorting and every `…_at` field stops
// being what the contract says; before 1970, ids and periods go negative.
// Every time a caller supplies (clock advance/set, start time, imported
// states, latencies) is held to this range up front.

/** 9999-12-31T23:59:59.999Z, the last instant with a four-digit year. */
export const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const MIN_TIME_MS = 0;

/** An integer time (unix ms) inside the range. */
export const isClockTime = (t: unknown): t is number =>
  typeof t === "number" && Number.isSafeInteger(t) && t >= MIN_TIME_MS && t <= MAX_TIME_MS;

/** The range in words, for messages. */
export const TIME_RANGE_TEXT = "between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z";
