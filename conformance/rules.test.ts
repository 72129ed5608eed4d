import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../contract/index.ts";
import { EVENT_TYPES, NOT_LIVE_EVENT_TYPES } from "../contract/events.ts";
import { INVARIANTS, SEQUENCES } from "../contract/invariants/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { WIRE_RULES } from "./wire.ts";
import { splitUnits, sentences, normalize } from "./inventory/split.ts";
import { runSuite } from "./runner.ts";
import { runs, type Check } from "./types.ts";
import { summaryTable } from "./reporters/console.ts";
import { json } from "./reporters/files.ts";
import { html } from "./reporters/html.ts";
import {
  INVENTORIES,
  REFERENCE_RULES,
  RULES,
  checkerExists,
  coverage,
  coverageLine,
  ruleCoverage,
  withCoverageLine,
} from "./rules.ts";

// The rule inventory's own rules: every unit of every docs/reference page is a rule of the inventory or
// deliberately skipped, each quoted sentence stands in its page under its heading, every rule has a checker
// that exists (or says why none can be, or what one would need), every check, wire rule and invariant cites
// an inventory rule, and docs/conformance.md prints the coverage line.

const REFERENCE = new URL("../docs/reference/", import.meta.url);
const page = (file: string) => readFileSync(new URL(file, REFERENCE), "utf8");

describe("the reference splitter", () => {
  it("cuts paragraphs after '. ', keeps bullets and table rows whole, and drops headings and table heads", () => {
    const md = [
      "# Title",
      "Intro one. Intro two, e.g. this",
      "continues.",
      "",
      "## Part",
      "",
      "| A | B |",
      "|---|---|",
      "| `x` | y. z |",
      "- a bullet",
      "  wrapped. Second.",
    ].join("\n");
    expect(splitUnits(md)).toEqual([
      { heading: "Title", text: "Intro one." },
      { heading: "Title", text: "Intro two, e.g. this continues." },
      { heading: "Part", text: "| `x` | y. z |" },
      { heading: "Part", text: "a bullet wrapped." },
      { heading: "Part", text: "Second." },
    ]);
    expect(sentences("One.  Two  words.")).toEqual(["One.", "Two words."]);
  });
});

describe("rule inventory", () => {
  it("has one inventory per docs/reference page", () => {
    const pages = readdirSync(REFERENCE).filter((f) => f.endsWith(".md"));
    expect(INVENTORIES.map((i) => i.file).sort()).toEqual(pages.sort());
  });

  it("quotes every rule and skipped text as its page words it, under its heading", () => {
    const missing = INVENTORIES.flatMap((inv) => {
      const units = splitUnits(page(inv.file));
      return [
        ...inv.rules.map((r) => ({ h: r.heading, t: r.sentence, id: r.id })),
        ...inv.skipped.map((s) => ({ h: s.heading, t: s.text, id: `skip(${s.reason})` })),
      ]
        .filter(({ h, t }) => !units.some((u) => u.heading === h && u.text.includes(normalize(t))))
        .map(({ h, id }) => `${inv.file} “${h}” ${id}`);
    });
    expect(missing).toEqual([]);
  });

  it("covers every sentence, bullet and table row of every page with a rule or a skip", () => {
    const uncovered = INVENTORIES.flatMap((inv) =>
      splitUnits(page(inv.file))
        .filter(
          (u) =>
            !inv.rules.some((r) => r.heading === u.heading && u.text.includes(normalize(r.sentence))) &&
            !inv.skipped.some((s) => s.heading === u.heading && u.text.includes(normalize(s.text))),
        )
        .map((u) => `${inv.file} “${u.heading}”: ${u.text}`),
    );
    expect(uncovered).toEqual([]);
    // Every page has rules, and skips carry a one-word reason.
    expect(INVENTORIES.every((inv) => inv.rules.length > 0)).toBe(true);
    const reasons = INVENTORIES.flatMap((inv) => inv.skipped.map((s) => s.reason));
    expect(reasons.filter((r) => !/^[a-z]+$/.test(r))).toEqual([]);
  });

  it("gives every rule a unique id and a checker that exists, or an explicit reason", () => {
    const ids = RULES.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const bad = RULES.flatMap((r) => {
      const by = r.checkedBy;
      if (Array.isArray(by))
        return by.length === 0
          ? [`${r.id}: no checker`]
          : by.filter((c) => !checkerExists(c)).map((c) => `${r.id}: ${c} does not exist`);
      const reason = "not_checkable" in by ? by.not_checkable : (by as { unchecked: string }).unchecked;
      return reason.trim().length < 10 ? [`${r.id}: no reason given`] : [];
    });
    expect(bad).toEqual([]);
  });

  it("names only operations and event types that exist", () => {
    const ops = new Set(OPERATIONS.map((o) => o.id));
    const events = new Set<string>([...EVENT_TYPES, ...NOT_LIVE_EVENT_TYPES]);
    const bad = REFERENCE_RULES.flatMap((r) => [
      ...(r.operations === "all" ? [] : (r.operations ?? [])).filter((o) => !ops.has(o)).map((o) => `${r.id}: ${o}`),
      ...(r.events ?? []).filter((e) => !events.has(e)).map((e) => `${r.id}: event ${e}`),
    ]);
    expect(bad).toEqual([]);
  });

  it("every check, wire rule and invariant cites an inventory rule", () => {
    const cited = new Set(RULES.flatMap((r) => (Array.isArray(r.checkedBy) ? r.checkedBy : [])));
    const checkers = [
      ...ALL_CHECKS.map((c) => c.id),
      ...Object.keys(WIRE_RULES).map((k) => `wire:${k}`),
      ...[...INVARIANTS, ...SEQUENCES].map((i) => `invariant:${i.id}`),
    ];
    expect(checkers.filter((c) => !cited.has(c))).toEqual([]);
  });

  it("counts the coverage: every rule is checked, not checkable or unchecked", () => {
    const c = coverage();
    expect(c.checked + c.notCheckable + c.unchecked).toBe(c.rules);
    expect(c.rules).toBe(RULES.length);
    expect(coverageLine()).toBe(
      `${c.rules} rules, ${c.checked} checked, ${c.notCheckable} not checkable, ${c.unchecked} unchecked`,
    );
    expect(coverageLine([{ id: "a", sentence: "s", checkedBy: { unchecked: "a check of s" } }])).toBe(
      "1 rules, 0 checked, 0 not checkable, 1 unchecked",
    );
  });

  it("docs/conformance.md prints the coverage line", () => {
    const line = coverageLine();
    console.log(`rule inventory: ${line}`);
    expect(readFileSync(new URL("../docs/conformance.md", import.meta.url), "utf8")).toContain(`(${line})`);
  });

  it("regenerates a stale coverage line in docs/conformance.md, and refuses a doc without one", () => {
    expect(
      withCoverageLine("a. Coverage (1 rules, 1 checked). b", "9 rules, 8 checked, 1 not checkable, 0 unchecked"),
    ).toBe("a. Coverage (9 rules, 8 checked, 1 not checkable, 0 unchecked). b");
    expect(() => withCoverageLine("no line here")).toThrow(/no “Coverage/);
  });

  it("the run's report carries the coverage and its summary prints it, in any mode", async () => {
    const check: Check = {
      id: "x",
      profile: "pipeline",
      title: "x",
      rule: "x",
      deviation: "none",
      ...runs("read-only", []),
      run: async () => {},
    };
    const never = (() => Promise.reject(new Error("the target must not be called"))) as typeof fetch;
    for (const mode of ["read-only", "sandbox"] as const) {
      const suite = await runSuite([check], {
        baseUrl: "http://target.invalid",
        profiles: ["pipeline"],
        mode,
        fetch: never,
      });
      expect(suite.rule_coverage).toEqual(ruleCoverage());
      expect(suite.rule_coverage!.line).toBe(coverageLine());
      expect(summaryTable(suite)).toContain(`Rule inventory (docs/reference): ${coverageLine()}`);
      expect(JSON.parse(json(suite)).rule_coverage.unchecked).toBe(coverage().unchecked);
      expect(html(suite)).toContain(`<p>Rule inventory (docs/reference): ${coverageLine()}</p>`);
    }
  });
});
