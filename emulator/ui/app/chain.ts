import { h, hashCell, table } from "./dom.ts";
import type { View } from "./page.ts";

// The Chain view: the JSON-RPC endpoint, the fixture accounts' balances and the latest blocks.

export const chainView: View = async (page) => {
  const chain = await page.control.chain.get().catch(() => null);
  if (!chain) return [h("p", {}, "The emulator runs without its chain (--no-chain).")];
  const [{ accounts }, { blocks }] = await Promise.all([page.control.chain.balances(), page.control.chain.blocks()]);
  return [
    h("p", {}, `JSON-RPC ${chain.rpcUrl ?? "(in-process)"} · chain id ${chain.chainId}`),
    h("h2", {}, "Balances"),
    table(
      ["label", "kind", "address", "ETH", "USDC"],
      accounts.map((a) =>
        h(
          "tr",
          { "data-testid": "balance-row", "data-label": a.label },
          h("td", {}, a.label),
          h("td", {}, a.kind),
          h("td", { class: "muted" }, a.address),
          h("td", {}, a.eth),
          h("td", { "data-testid": "usdc" }, a.usdc),
        ),
      ),
    ),
    h("h2", {}, "Latest blocks"),
    table(
      ["number", "time", "transactions", "gas used", "hash"],
      blocks.map((b) =>
        h(
          "tr",
          { "data-testid": "block-row" },
          h("td", {}, b.number),
          h("td", {}, b.timestamp),
          h("td", { title: b.transactions.join("\n") }, b.transactions.length),
          h("td", {}, b.gas_used),
          hashCell(b.hash),
        ),
      ),
    ),
  ];
};
