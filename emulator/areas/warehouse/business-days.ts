// Warehouse business-day math (docs/reference/api-rules.md “Other limits”): computed in the
// warehouse's local time (US Central, America/Chicago, so CST or CDT as the
// date demands), returned as UTC timestamps. Business days are Monday–Friday
// except US federal holidays the warehouse closes for.

import { isoDay, isoOf } from "../../../contract/time.ts";

export const WAREHOUSE_TZ = "America/Chicago";
/** Orders committed at or after this local hour start their clock on the next business day. */
export const CUTOFF_HOUR = 14;
/** Local hour by which an order must ship on its ship-by day. */
export const SHIP_BY_HOUR = 17;

// Made on first use: a formatter with a time zone loads ICU's zone data (~20 ms of every import otherwise).
let fmt: Intl.DateTimeFormat | undefined;
const formatter = () =>
  (fmt ??= new Intl.DateTimeFormat("en-US", {
    timeZone: WAREHOUSE_TZ,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }));

export interface LocalTime {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(ts: number): LocalTime {
  const p: Record<string, number> = {};
  for (const part of formatter().formatToParts(new Date(ts)))
    if (part.type !== "literal") p[part.type] = Number(part.value);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second };
}

/** Offset of Central time from UTC at `ts`, in ms (−6 h in CST, −5 h in CDT). */
function offsetAt(ts: number): number {
  const l = localParts(ts);
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second) - Math.floor(ts / 1000) * 1000;
}

/** The UTC instant of a Central wall-clock time. */
export function centralToUtc(year: number, month: number, day: number, hour: number, minute = 0): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  const first = guess - offsetAt(guess);
  // Re-check across a DST change between the guess and the answer.
  return guess - offsetAt(first);
}

type Ymd = { year: number; month: number; day: number };

const nthWeekday = (year: number, month: number, weekday: number, n: number): number => {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
};
const lastWeekday = (year: number, month: number, weekday: number): number => {
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, days)).getUTCDay();
  return days - ((last - weekday + 7) % 7);
};

/**
 * Observed federal holidays the warehouse closes for that fall in `year`
 * (fixed-date ones move off weekends: Saturday → Friday, Sunday → Monday).
 * When New Year's Day is a Saturday it is observed on Friday 31 December of
 * the year before, so each year also takes the next year's New Year.
 */
export function holidays(year: number): Set<string> {
  const out = new Set<string>();
  const fixed = (y: number, m: number, d: number) => {
    const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    out.add(isoDay(Date.UTC(y, m - 1, d + (dow === 6 ? -1 : dow === 0 ? 1 : 0))));
  };
  const floating = (m: number, d: number) =>
    out.add(`${year}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
  fixed(year, 1, 1); // New Year's Day
  floating(5, lastWeekday(year, 5, 1)); // Memorial Day
  fixed(year, 7, 4); // Independence Day
  floating(9, nthWeekday(year, 9, 1, 1)); // Labor Day
  floating(11, nthWeekday(year, 11, 4, 4)); // Thanksgiving
  fixed(year, 12, 25); // Christmas
  fixed(year + 1, 1, 1); // next New Year's Day, observed on 31 December when it is a Saturday
  return new Set([...out].filter((day) => day.startsWith(`${year}-`)));
}

const iso = (d: Ymd) => `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

export function isBusinessDay(d: Ymd): boolean {
  const dow = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  return dow !== 0 && dow !== 6 && !holidays(d.year).has(iso(d));
}

function nextDay(d: Ymd): Ymd {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + 1));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** The first business day on or after `d`. */
function onOrAfter(d: Ymd): Ymd {
  let cur = d;
  while (!isBusinessDay(cur)) cur = nextDay(cur);
  return cur;
}

/** `n` business days after business day `d`. */
export function addBusinessDays(d: Ymd, n: number): Ymd {
  let cur = d;
  for (let i = 0; i < n; i++) cur = onOrAfter(nextDay(cur));
  return cur;
}

/**
 * Deadlines of an order committed at `ts`: it must ship by 17:00 Central on its
 * start day (the commit day when that is a business day before the 14:00
 * cutoff, else the next business day); the SLA falls due at 17:00 Central one
 * business day later.
 */
export function orderDeadlines(ts: number): { ship_by_at: string; sla_due_at: string } {
  const l = localParts(ts);
  const today = { year: l.year, month: l.month, day: l.day };
  const start = isBusinessDay(today) && l.hour < CUTOFF_HOUR ? today : onOrAfter(nextDay(today));
  const due = addBusinessDays(start, 1);
  const at = (d: Ymd) => isoOf(centralToUtc(d.year, d.month, d.day, SHIP_BY_HOUR));
  return { ship_by_at: at(start), sla_due_at: at(due) };
}
