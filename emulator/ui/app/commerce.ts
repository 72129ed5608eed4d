import type { Answer } from "./api.ts";
import { bound, h, hashCell, short, table } from "./dom.ts";
import { act, type Page, type View } from "./page.ts";
import { rowButtons } from "./row-buttons.ts";

// The Commerce view: VRF requests, the operator switches, mystery and instant purchases, custodial end users,
// redemptions, buybacks, sell-backs and the commerce events. The purchase and redemption rows' buttons are
// their lifecycle tables' (row-buttons.ts).

const toggle = (page: Page, label: string, on: boolean, set: (enabled: boolean) => Promise<unknown>, testid: string) =>
  act(page, `${label}: ${on ? "on" : "off"} → turn ${on ? "off" : "on"}`, () => set(!on), testid);

export const commerceView: View = async (page) => {
  const c = page.control;
  const [vrf, m, inst, { events }, instant] = await Promise.all([
    c.vrf.get().catch(() => null),
    c.mystery.get(),
    c.instant.purchases().catch(() => ({ purchases: [] })),
    c.mystery.events().catch(() => ({ events: [] })),
    c.instant.get().catch(() => null),
  ]);
  return [
    h("h2", {}, "Pending VRF requests"),
    vrf
      ? [
          h(
            "div",
            { class: "actions" },
            act(
              page,
              `VRF: ${vrf.mode} → ${vrf.mode === "auto" ? "manual" : "auto"}`,
              () => c.vrf.setMode({ mode: vrf.mode === "auto" ? "manual" : "auto" }),
              "vrf-mode",
            ),
          ),
          table(
            ["request id", ""],
            vrf.pending.map((id) =>
              h(
                "tr",
                { "data-testid": "vrf-pending" },
                h("td", {}, id),
                h(
                  "td",
                  {},
                  act(page, "Fulfil now", () => c.vrf.fulfill({ request_id: id }), `fulfil-${id}`),
                ),
              ),
            ),
          ),
        ]
      : h("p", {}, "No chain."),
    h("h2", {}, "Operator switches"),
    h(
      "div",
      { class: "actions", "data-testid": "switches" },
      toggle(page, "Relayer", m.relayer === "on", (enabled) => c.mystery.relayer({ enabled }), "toggle-relayer"),
      toggle(
        page,
        "Shipping signer",
        m.shipping_signer === "on",
        (enabled) => c.mystery.shippingSigner({ enabled }),
        "toggle-shipping-signer",
      ),
      instant
        ? toggle(page, "Instant packs", instant.enabled, (enabled) => c.instant.enabled({ enabled }), "toggle-instant")
        : "",
      act(
        page,
        `Warehouse progression: ${m.warehouse_mode} → ${m.warehouse_mode === "auto" ? "manual" : "auto"}`,
        () => c.mystery.warehouse({ mode: m.warehouse_mode === "auto" ? "manual" : "auto" }),
        "warehouse-mode",
      ),
      act(page, "Run worker now", () => c.mystery.workerRun({}), "run-worker"),
    ),
    h(
      "div",
      { class: "actions" },
      Object.entries(m.kyc_required).map(([account, required]) =>
        act(
          page,
          `KYC ${account}: ${required ? "required" : "off"}`,
          () => c.mystery.kyc({ account_id: account, required: !required }),
          `kyc-${account}`,
        ),
      ),
    ),
    h("h2", {}, "Mystery purchases"),
    table(
      ["id", "account", "custody", "status", "tier", "price", "user", "tx", "VRF request", "items", "created", ""],
      m.purchases.map((p) =>
        h(
          "tr",
          { "data-testid": "purchase-row", "data-id": p.id, "data-status": p.status },
          h("td", {}, p.id),
          h("td", {}, p.account_id),
          h("td", {}, p.custody),
          h("td", {}, p.status),
          h("td", {}, p.tier_id),
          h("td", {}, p.price_usdc),
          h("td", {}, p.external_user_id ?? ""),
          hashCell(p.transaction_hash),
          h("td", { class: "muted" }, short(p.onchain_request_id)),
          h("td", {}, p.items),
          h("td", {}, p.created_at),
          h("td", {}, rowButtons(page, "mystery-purchase", p, p.id)),
        ),
      ),
      { "data-testid": "purchases" },
    ),
    h("h2", {}, "Custodial end users"),
    custodialForm(page, m.kyc_required, instant),
    h("h2", {}, "Instant purchases"),
    table(
      ["id", "account", "status", "packet type", "price", "tx", "cards", "created"],
      inst.purchases.map((p) =>
        h(
          "tr",
          { "data-testid": "instant-row", "data-status": p.status },
          h("td", {}, p.id),
          h("td", {}, p.account_id),
          h("td", {}, p.status),
          h("td", {}, p.packet_type_id),
          h("td", {}, p.price_usdc),
          hashCell(p.transaction_hash),
          h("td", {}, p.cards?.length ?? 0),
          h("td", {}, p.created_at),
        ),
      ),
    ),
    h("h2", {}, "Redemptions"),
    table(
      ["id", "account", "status", "token", "burn tx", "shipping paid tx", "tracking", "updated", ""],
      m.redemptions.map((r) =>
        h(
          "tr",
          { "data-testid": "redemption-row", "data-status": r.status },
          h("td", {}, r.redemption_id),
          h("td", {}, r.account_id),
          h("td", {}, r.status),
          h("td", { class: "muted" }, short(r.token_id)),
          hashCell(r.burn_tx_hash),
          hashCell(r.shipping_paid_tx_hash),
          h("td", {}, r.tracking_number ?? ""),
          h("td", {}, r.updated_at),
          h("td", {}, rowButtons(page, "mystery-redemption", r, r.redemption_id)),
        ),
      ),
    ),
    h("h2", {}, "Buybacks"),
    table(
      ["offer", "account", "token", "status", "price", "accept tx", "created"],
      m.buybacks.map((o) =>
        h(
          "tr",
          { "data-testid": "buyback-row" },
          h("td", {}, o.offer_id),
          h("td", {}, o.account_id),
          h("td", { class: "muted" }, short(o.token_id)),
          h("td", {}, o.status),
          h("td", {}, o.price_usdc),
          hashCell(o.accept_tx_hash),
          h("td", {}, o.created_at),
        ),
      ),
    ),
    h("h2", {}, "Sell-backs"),
    table(
      ["id", "account", "seller", "tokens", "total", "tx", "sold"],
      m.sell_backs.map((b) =>
        h(
          "tr",
          { "data-testid": "sellback-row" },
          h("td", {}, b.sellback_id),
          h("td", {}, b.account_id),
          hashCell(b.seller),
          h("td", {}, b.token_ids.length),
          h("td", {}, b.total_usdc),
          hashCell(b.transaction_hash),
          h("td", {}, b.sold_at),
        ),
      ),
    ),
    h("h2", {}, "Commerce events"),
    table(
      ["at", "account", "type", "data"],
      events
        .slice()
        .reverse()
        .map((e) =>
          h(
            "tr",
            { "data-testid": "commerce-event", "data-type": e.type },
            h("td", {}, e.at),
            h("td", {}, e.account_id),
            h("td", {}, e.type),
            h("td", { class: "muted" }, JSON.stringify(e.data).slice(0, 160)),
          ),
        ),
    ),
  ];
};

/** Fund an end user's custodial balance, or make a custodial instant purchase for them (POST /_emulator/mystery/custodial/fund, /instant/custodial). */
function custodialForm(page: Page, partners: Record<string, boolean>, instant: Answer<"instant", "get"> | null) {
  const c = page.control;
  const form = page.custodial;
  const account = bound(
    form,
    "account",
    h(
      "select",
      { "data-testid": "custodial-account" },
      Object.keys(partners).map((a) => h("option", { value: a }, a)),
    ),
  );
  const user = bound(form, "user", h("input", { placeholder: "external_user_id", "data-testid": "custodial-user" }));
  const usdc = bound(
    form,
    "usdc",
    h("input", { placeholder: "USDC", class: "narrow", "data-testid": "custodial-usdc" }),
  );
  const types = instant ? instant.packet_types.filter((t) => t.available_packs > 0) : [];
  const packet = bound(
    form,
    "packet",
    h(
      "select",
      { "data-testid": "custodial-packet" },
      types.map((t) => h("option", { value: t.packet_type_id }, `pack ${t.packet_type_id} (${t.price_usdc} USDC)`)),
    ),
  );
  return h(
    "div",
    { class: "actions" },
    account,
    user,
    usdc,
    act(
      page,
      "Fund",
      () => c.mystery.fund({ account_id: account.value, external_user_id: user.value, usdc: usdc.value }),
      "custodial-fund",
    ),
    instant
      ? [
          packet,
          act(
            page,
            "Custodial instant purchase",
            () =>
              c.instant.custodial({
                account_id: account.value,
                external_user_id: user.value,
                packet_type_id: Number(packet.value),
              }),
            "custodial-instant",
          ),
        ]
      : "",
  );
}
