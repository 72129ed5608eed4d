import type { Answer } from "./api.ts";
import { h, table } from "./dom.ts";
import { act, type Page, type View } from "./page.ts";

// The Clock & timers view: virtual time, advancing it, its mode, the pending timers and the steered reveals
// waiting for their purchase.

export const clockView: View = async (page) => {
  const clock = await page.control.clock.get();
  const advance = (label: string, ms: number) =>
    act(page, label, () => page.control.clock.advance({ ms }), `advance-${label}`);
  const to = h("input", { placeholder: "ISO time", "data-testid": "advance-to" });
  return [
    h("h2", {}, `Virtual time ${clock.now} (${clock.mode})`),
    h(
      "div",
      { class: "actions" },
      advance("1s", 1000),
      advance("30s", 30_000),
      advance("2m", 120_000),
      advance("1h", 3_600_000),
      advance("1d", 86_400_000),
      to,
      act(page, "Advance to", () => page.control.clock.advance({ to: to.value }), "advance-to-go"),
    ),
    h(
      "div",
      { class: "actions" },
      act(
        page,
        clock.mode === "manual" ? "Switch to realtime" : "Switch to manual",
        () => page.control.clock.setMode({ mode: clock.mode === "manual" ? "realtime" : "manual" }),
        "clock-mode",
      ),
    ),
    h("h2", {}, "Pending timers"),
    table(
      ["at", "what"],
      clock.pending.map((t) => h("tr", {}, h("td", {}, t.at), h("td", {}, t.label))),
      { "data-testid": "timers" },
    ),
    h("h2", {}, "Pending steered reveals"),
    await pendingReveals(page),
  ];
};

/** Micros (an integer string) as a decimal amount: "2500000" → "2.5" (null as 0). */
const usd = (micros: string | null): string => {
  const n = BigInt(micros ?? "0");
  const fraction = (n % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction ? `${n / 1_000_000n}.${fraction}` : `${n / 1_000_000n}`;
};

type Steer = Answer<"mystery", "reveals">["pending"][number] | Answer<"instant", "reveals">["pending"][number];

/** What a steer waits for (a purchase, or the next one of a tier by an account or user) and what it yields. */
const steerRow = (area: string, s: Steer) =>
  h(
    "tr",
    { "data-testid": "reveal-row", "data-area": area },
    h("td", {}, area),
    h("td", {}, s.id),
    h(
      "td",
      {},
      s.purchase_id !== null
        ? `purchase ${s.purchase_id}`
        : [`tier ${s.tier_id}`, s.account_id ?? "", s.external_user_id ?? ""].filter(Boolean).join(" · "),
    ),
    h(
      "td",
      {},
      s.items.length
        ? s.items.join(", ")
        : s.band
          ? `${s.band.rarity ?? "any"} ${usd(s.band.min_micros)}-${usd(s.band.max_micros)} USD`
          : "",
    ),
    h("td", {}, s.created_at),
  );

/** The steered reveals waiting for their purchase (GET /_emulator/mystery/reveals and /instant/reveals; a world's `reveals:`). */
async function pendingReveals(page: Page): Promise<HTMLTableElement> {
  const [mystery, instant] = await Promise.all([page.control.mystery.reveals(), page.control.instant.reveals()]);
  return table(
    ["area", "steer", "waits for", "yields", "queued at"],
    [...mystery.pending.map((s) => steerRow("mystery", s)), ...instant.pending.map((s) => steerRow("instant", s))],
    { "data-testid": "reveals" },
  );
}
