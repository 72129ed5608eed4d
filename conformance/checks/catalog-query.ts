import type { Check } from "../types.ts";
import { runs } from "../types.ts";
import { ensure, expectSuccess, sameFields } from "../assert.ts";
import type { HttpClient } from "../../harness/http.ts";

// The `q` grammar's meaning (docs/reference/live-service.md “Card Data query grammar”): successful
// queries for each operator, every page walked, each row held to the query, and no matching row of
// a small expansion (walked in full) missing from the answer.

type Card = { id: string; rarity?: string | null; hp?: string | null };
const CARDS = "/api/v1/pokemon/cards";
const PAGE = 100;
const MAX_PAGES = 10;

async function walk(http: HttpClient, key: string, query: Record<string, string>): Promise<Card[]> {
  const rows: Card[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const b = expectSuccess(
      await http.get(CARDS, { key, query: { ...query, page: String(page), page_size: String(PAGE) } }),
      `${CARDS}?${new URLSearchParams(query)} page ${page}`,
    );
    const data = b.data as Card[];
    rows.push(...data);
    const count = (b as { total_count?: unknown }).total_count;
    if (data.length < PAGE || rows.length >= Number(count)) return rows;
  }
  throw new Error(`${CARDS}?${new URLSearchParams(query)}: no last page within ${MAX_PAGES} pages`);
}

/** `hp` is a numeric string on the wire; anything else counts as missing. */
const hpOf = (c: Card): number | null => (typeof c.hp === "string" && /^\d+$/.test(c.hp) ? Number(c.hp) : null);
const rarityOf = (c: Card) => (c.rarity ?? "").toLowerCase();

/** The answer to `q` holds exactly the expansion's rows that `matches`. */
function sameSet(got: readonly Card[], universe: readonly Card[], matches: (c: Card) => boolean, q: string): void {
  const ids = new Set(got.map((c) => c.id));
  ensure(ids.size === got.length, `q=${q}: a row came twice`);
  for (const c of got)
    ensure(
      matches(c),
      `q=${q}: row ${c.id} (rarity ${JSON.stringify(c.rarity)}, hp ${JSON.stringify(c.hp)}) does not match the query`,
    );
  const missing = universe.filter((c) => matches(c) && !ids.has(c.id));
  ensure(
    missing.length === 0,
    `q=${q}: ${missing.length} matching row(s) of the expansion missing (first: ${missing[0]?.id})`,
  );
}

function sorted(got: readonly Card[], dir: 1 | -1, what: string): void {
  const hps = got.map(hpOf).filter((h): h is number => h !== null);
  for (let i = 1; i < hps.length; i++)
    ensure(
      (hps[i] - hps[i - 1]) * dir >= 0,
      `${what}: hp ${hps[i - 1]} then ${hps[i]} is not ${dir === 1 ? "ascending" : "descending"}`,
    );
}

export const catalogQueryChecks: Check[] = [
  {
    id: "catalog.q-meaning",
    guards:
      "docs/reference/live-service.md “Card Data query grammar” (terms AND, a leading - excludes, [a TO b] inclusive, orderBy)",
    profile: "catalog",
    title: "q's operators mean what the grammar says: AND, negation, ranges, orderBy ascending and -field descending",
    rule: "Within one expansion walked in full: space-separated terms are ANDed, -term excludes, hp:[a TO b] bounds inclusively, orderBy=hp sorts ascending and orderBy=-hp descending; every row of every page matches, and no matching row is missing.",
    ...runs("read-only", ["partnerKey"], 24),
    deviation: "catalog_orderby_desc_ignored",
    async run({ http, partnerKey: key }) {
      const first = (
        expectSuccess(await http.get(CARDS, { key, query: { page_size: "1" } }), "first card").data as Array<{
          expansion?: { id?: string };
        }>
      )[0];
      const exp = first?.expansion?.id;
      ensure(typeof exp === "string", "the first card must name its expansion.id");
      const scope = `expansion.id:${exp}`;
      const all = await walk(http, key, { q: scope });
      ensure(all.length > 1, `expansion ${exp} must have rows to query`);
      const rarity = all
        .map((c) => c.rarity)
        .find((r): r is string => typeof r === "string" && r !== "" && !r.includes('"'));
      const hps = all
        .map(hpOf)
        .filter((h): h is number => h !== null)
        .sort((a, b) => a - b);
      ensure(rarity && hps.length > 1, `expansion ${exp} must have a rarity and numeric hp values to query`);
      const [lo, hi] = [hps[Math.floor(hps.length / 4)], hps[Math.floor((3 * hps.length) / 4)]];
      const inRange = (c: Card) => {
        const h = hpOf(c);
        return h !== null && h >= lo && h <= hi;
      };
      const isRarity = (c: Card) => rarityOf(c) === rarity.toLowerCase();
      const queries: Array<[string, (c: Card) => boolean]> = [
        [`${scope} !rarity:"${rarity}" hp:[${lo} TO ${hi}]`, (c) => isRarity(c) && inRange(c)],
        [`${scope} -rarity:"${rarity}"`, (c) => !rarityOf(c).includes(rarity.toLowerCase())],
        [`${scope} hp:[${lo} TO ${hi}]`, inRange],
      ];
      for (const [q, m] of queries)
        ensure(
          all.some(m) && !all.every(m),
          `q=${q}: the expansion must hold rows on both sides of the query for it to show anything`,
        );
      for (const [q, m] of queries) sameSet(await walk(http, key, { q }), all, m, q);
      for (const [orderBy, dir] of [
        ["hp", 1],
        ["-hp", -1],
      ] as const) {
        const got = await walk(http, key, { q: scope, orderBy });
        sameSet(got, all, () => true, `${scope} orderBy=${orderBy}`);
        sorted(got, dir, `q=${scope} orderBy=${orderBy}`);
      }
    },
  },
];

catalogQueryChecks.push({
  id: "catalog.card-by-id-equals-listed",
  guards: "docs/reference/live-service.md “Card Data endpoints” (search cards, get a card)",
  profile: "catalog",
  title: "A Card Data card fetched by id equals the same card in the search list, field by field",
  rule: "One resource, many routes: GET /{game}/cards/{id} answers the same fields and values as the card's row in GET /{game}/cards.",
  ...runs("read-only", ["partnerKey"], 6),
  deviation: "catalog_card_by_id_hp_changed",
  async run({ http, partnerKey: key }) {
    const rows = expectSuccess(await http.get(CARDS, { key, query: { page_size: "5" } }), "search cards").data as Array<
      Record<string, unknown>
    >;
    ensure(rows.length > 0, "the search must list cards to compare");
    for (const row of rows) {
      const byId = expectSuccess(
        await http.get(`${CARDS}/${encodeURIComponent(String(row.id))}`, { key }),
        `GET ${CARDS}/${String(row.id)}`,
      ).data as Record<string, unknown>;
      sameFields(byId, row, `card ${String(row.id)}`);
    }
  },
});

// Expansions and sealed products: the same rule, one check (and one deviation) each.
for (const { kind, deviation, field } of [
  { kind: "expansions", deviation: "catalog_expansion_by_id_total_changed", field: "total" },
  { kind: "sealed", deviation: "catalog_sealed_by_id_name_changed", field: "name" },
] as const)
  catalogQueryChecks.push({
    id: `catalog.${kind === "sealed" ? "sealed" : "expansion"}-by-id-equals-listed`,
    guards: "docs/reference/live-service.md “Card Data endpoints”",
    profile: "catalog",
    title: `A Card Data ${kind === "sealed" ? "sealed product" : "expansion"} fetched by id equals its listed row`,
    rule:
      `One resource, many routes: GET /{game}/${kind}/{id} answers the same fields and values ` +
      `as its row in GET /{game}/${kind} (${field} included).`,
    ...runs("read-only", ["partnerKey"], 4),
    deviation,
    async run({ http, partnerKey: key }) {
      const path = `/api/v1/pokemon/${kind}`;
      const list = await http.get(path, { key, query: { page_size: "3" } });
      const rows = expectSuccess(list, `GET ${path}`).data as Array<Record<string, unknown>>;
      ensure(rows.length > 0, `GET ${path} must list rows to compare`);
      for (const row of rows) {
        const one = await http.get(`${path}/${encodeURIComponent(String(row.id))}`, { key });
        const byId = expectSuccess(one, `GET ${path}/${String(row.id)}`).data as Record<string, unknown>;
        sameFields(byId, row, `${kind} ${String(row.id)}`);
      }
    },
  });
