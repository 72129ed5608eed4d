import { invariant, type Problem } from "./invariant.ts";
import { isObj, micros, obj, shownValue, usdc, usdcText } from "./read.ts";

// Money relations of partner answers (all micros and USDC strings, compared as bigint micros).

/** Every `<name>_usdc` beside `<name>_micros` or a micros `<name>` under `value`, each pair naming one amount. */
function twins(value: unknown, at: string, out: Problem[]): void {
  if (Array.isArray(value)) return value.forEach((v, i) => twins(v, `${at}/${i}`, out));
  if (!isObj(value)) return;
  for (const [k, v] of Object.entries(value)) {
    twins(v, `${at}/${k}`, out);
    if (!k.endsWith("_usdc")) continue;
    const amount = usdc(v);
    if (amount === null) continue;
    const base = k.slice(0, -"_usdc".length);
    for (const twin of [`${base}_micros`, base]) {
      const m = micros(value[twin]);
      if (m !== null && m !== amount)
        out.push({
          pointer: `${at}/${k}`,
          text: `expected ${JSON.stringify(usdcText(m))} (the same amount as ${twin} ${JSON.stringify(value[twin])}), received ${shownValue(v)}`,
        });
    }
  }
}

export const MONEY_INVARIANTS = [
  invariant({
    id: "money.usdc-twins",
    rule: "`*_micros` and bare amounts are integer USDC micros, `*_usdc` a 6-decimal string: a `_usdc` field and its micros twin name the same amount",
    source: "docs/reference/live-service.md “Money, ids and time”",
    operations: "all",
    check: (a) => {
      const out: Problem[] = [];
      twins(a.data, "/data", out);
      return out;
    },
  }),
  invariant({
    id: "wallet.available",
    rule: "GET balance: available = balance − reserved (micros and usdc twins)",
    source: "docs/reference/live-service.md “Custodial wallet”",
    operations: ["wallet.balance"],
    check: (a) => {
      const d = obj(obj(a.data)?.wallet);
      const [available, balance, reserved] = [micros(d?.available), micros(d?.balance), micros(d?.reserved)];
      if (available === null || balance === null || reserved === null || available === balance - reserved) return [];
      return [
        {
          pointer: "/data/wallet/available",
          text: `expected balance ${balance} − reserved ${reserved} = ${balance - reserved}, received ${available}`,
        },
      ];
    },
  }),
];
