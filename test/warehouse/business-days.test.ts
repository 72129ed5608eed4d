import { describe, it, expect } from "vitest";
import { centralToUtc, holidays, isBusinessDay, orderDeadlines } from "../../emulator/areas/warehouse/business-days.ts";

const at = (iso: string) => orderDeadlines(Date.parse(iso));

describe("US Central business-day math, returned in UTC", () => {
  it("converts Central wall time to UTC in both CST (−6) and CDT (−5)", () => {
    expect(new Date(centralToUtc(2026, 1, 15, 17)).toISOString()).toBe("2026-01-15T23:00:00.000Z");
    expect(new Date(centralToUtc(2026, 7, 15, 17)).toISOString()).toBe("2026-07-15T22:00:00.000Z");
    // the day DST starts (2026-03-08) and the day it ends (2026-11-01)
    expect(new Date(centralToUtc(2026, 3, 8, 17)).toISOString()).toBe("2026-03-08T22:00:00.000Z");
    expect(new Date(centralToUtc(2026, 11, 1, 17)).toISOString()).toBe("2026-11-01T23:00:00.000Z");
  });

  it("before the 14:00 cutoff on a business day ships the same day; SLA one business day later", () => {
    // Thursday 2026-01-15 06:00 CST
    expect(at("2026-01-15T12:00:00Z")).toEqual({
      ship_by_at: "2026-01-15T23:00:00.000Z",
      sla_due_at: "2026-01-16T23:00:00.000Z",
    });
  });

  it("after the cutoff the clock starts the next business day, skipping the weekend", () => {
    // Friday 2026-01-16 15:00 CST → Monday 19th (not a holiday... MLK is not a closure here)
    expect(at("2026-01-16T21:00:00Z")).toEqual({
      ship_by_at: "2026-01-19T23:00:00.000Z",
      sla_due_at: "2026-01-20T23:00:00.000Z",
    });
    // Saturday
    expect(at("2026-01-17T15:00:00Z").ship_by_at).toBe("2026-01-19T23:00:00.000Z");
  });

  it("uses the Central date, not the UTC date, near midnight", () => {
    // 2026-01-16T03:00Z is Thursday 21:00 CST: after the cutoff → Friday
    expect(at("2026-01-16T03:00:00Z").ship_by_at).toBe("2026-01-16T23:00:00.000Z");
  });

  it("skips federal holidays the warehouse closes for, and CDT deadlines are 22:00Z", () => {
    expect(holidays(2026).has("2026-07-03")).toBe(true); // July 4th 2026 is a Saturday → observed Friday
    expect(holidays(2026).has("2026-11-26")).toBe(true); // Thanksgiving
    // Thursday 2026-07-02 15:00 CDT → next business day is Monday 07-06 (07-03 observed holiday)
    expect(at("2026-07-02T20:00:00Z")).toEqual({
      ship_by_at: "2026-07-06T22:00:00.000Z",
      sla_due_at: "2026-07-07T22:00:00.000Z",
    });
    // Wednesday before Thanksgiving, before the cutoff: SLA skips Thursday
    expect(at("2026-11-25T15:00:00Z")).toEqual({
      ship_by_at: "2026-11-25T23:00:00.000Z",
      sla_due_at: "2026-11-27T23:00:00.000Z",
    });
  });

  it("closes for New Year's Day, observed on Friday 31 December when 1 January is a Saturday", () => {
    // 2027-01-01 is a Friday: Thursday 2026-12-31 after the cutoff → Monday 2027-01-04
    expect(holidays(2027).has("2027-01-01")).toBe(true);
    expect(at("2026-12-31T21:00:00Z")).toEqual({
      ship_by_at: "2027-01-04T23:00:00.000Z",
      sla_due_at: "2027-01-05T23:00:00.000Z",
    });
    // 2028-01-01 is a Saturday: observed Friday 2027-12-31, which belongs to 2027's calendar
    expect(holidays(2027).has("2027-12-31")).toBe(true);
    expect(holidays(2028).has("2027-12-31")).toBe(false);
    expect(isBusinessDay({ year: 2027, month: 12, day: 31 })).toBe(false);
    // Thursday 2027-12-30 before the cutoff: ships that day, SLA skips the observed holiday to Monday 2028-01-03
    expect(at("2027-12-30T15:00:00Z")).toEqual({
      ship_by_at: "2027-12-30T23:00:00.000Z",
      sla_due_at: "2028-01-03T23:00:00.000Z",
    });
    // ... and after the cutoff the clock starts on Monday
    expect(at("2027-12-30T21:00:00Z")).toEqual({
      ship_by_at: "2028-01-03T23:00:00.000Z",
      sla_due_at: "2028-01-04T23:00:00.000Z",
    });
    // 2023-01-01 is a Sunday: observed Monday 2023-01-02
    expect(holidays(2023).has("2023-01-02")).toBe(true);
    expect(isBusinessDay({ year: 2022, month: 12, day: 30 })).toBe(true);
  });
});
