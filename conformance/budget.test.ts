import { describe, it, expect } from "vitest";
import { runSuite } from "./runner.ts";
import { emulatorOnly, NotApplicable, runs, type Check } from "./types.ts";
import { summaryTable } from "./reporters/console.ts";

// The budgets of a run: each check's declared credits are counted against --max-credits before it runs (a
// check over what is left is not applicable, saying so); a check that finds itself not applicable gives its
// credits back; real-time waits beyond --max-wait and control-plane checks say what they need; the summary
// reports what was spent. Synthetic checks against a target that is never called.

const check = (id: string, over: Partial<Check>, run: Check["run"] = async () => {}): Check => ({
  id,
  profile: "pipeline",
  title: id,
  rule: id,
  deviation: "none",
  ...runs("sandbox", ["partnerKey"]),
  ...over,
  run,
});

const CHECKS = [
  check("a", { credits: 3 }),
  check("b", { credits: 5 }),
  check("d", { credits: 2 }, async () => {
    throw new NotApplicable("the target offers no such thing");
  }),
  check("c", { credits: 3 }),
  check("wait", { waitMs: 200_000 }),
  check("clock", emulatorOnly("clock", "advances 25 hours")),
  check("tier", { needs: ["revenueShareKey"] }),
  check("hook", { needs: ["webhookUrl"] }),
];

const never = (() => Promise.reject(new Error("the target must not be called"))) as typeof fetch;

describe("budgets and what a check needs", () => {
  it("a tight --max-credits skips the checks over what is left; a not-applicable check gives its credits back; totals are reported", async () => {
    const suite = await runSuite(CHECKS, {
      baseUrl: "http://target.invalid",
      partnerKey: "k",
      profiles: ["pipeline"],
      mode: "sandbox",
      maxCredits: 6,
      fetch: never,
    });
    expect(suite.results.map((r) => [r.id, r.outcome, r.message])).toEqual([
      ["a", "pass", ""],
      ["b", "not_applicable", "would exceed --max-credits (needs 5, 3 left)"],
      ["d", "not_applicable", "the target offers no such thing"],
      ["c", "pass", ""],
      ["wait", "not_applicable", "would wait up to 200 s in real time; --max-wait is 180 s"],
      [
        "clock",
        "not_applicable",
        "needs an emulator target: moves time past what real time allows (advances 25 hours)",
      ],
      ["tier", "not_applicable", "needs --revenue-share-key (a partner key of the TIER billing model)"],
      [
        "hook",
        "not_applicable",
        "needs --webhook-url and --webhook-port (a public URL the target can reach, forwarding to this machine)",
      ],
    ]);
    expect(suite.spent).toEqual({ credits: 6, max_credits: 6, usdc: 0, max_spend_usdc: null });
    expect(summaryTable(suite)).toContain(
      "Spent (declared costs of the checks that ran): 6 credits of 6 (--max-credits), 0 test USDC (no --max-spend-usdc)",
    );
  });

  it("--max-wait bounds the real time a check may wait", async () => {
    const suite = await runSuite(
      CHECKS.filter((c) => c.id === "wait"),
      {
        baseUrl: "http://target.invalid",
        partnerKey: "k",
        profiles: ["pipeline"],
        mode: "sandbox",
        maxWaitMs: 300_000,
        fetch: never,
      },
    );
    expect(suite.results.map((r) => r.outcome)).toEqual(["pass"]);
  });
});
