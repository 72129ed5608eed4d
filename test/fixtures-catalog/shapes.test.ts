// Shape checks over every row. Each check collects problems and asserts the
// list is empty once (per-row expect() calls are too slow for 45k rows).

import { describe, expect, it } from "vitest";
import { GAME_LANGUAGES, LANGUAGE_NAMES, SEALED_PRODUCT_TYPES } from "../../emulator/catalog-data/model.ts";
import { IMAGE_HOST, REFERENCE_DATE } from "../../fixtures/catalog/index.ts";
import { compareNumbers } from "../../fixtures/catalog/util.ts";
import { catalogFor, nonJsonPaths } from "./catalog.ts";

const REF = Date.parse(REFERENCE_DATE);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DATE = /^\d{4}\/\d{2}\/\d{2}$/;
const cents = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/** Collects up to 20 failure messages. */
function problems() {
  const list: string[] = [];
  return {
    list,
    check(ok: boolean, message: () => string) {
      if (!ok && list.length < 20) list.push(message());
    },
  };
}

describe.each(["default", "large"] as const)("catalog fixtures: shapes (%s)", (size) => {
  const catalog = catalogFor(42, size);

  it("is plain JSON data with no undefined-valued keys", () => {
    expect(nonJsonPaths(catalog).slice(0, 5)).toEqual([]);
    if (size === "default") expect(JSON.parse(JSON.stringify(catalog))).toStrictEqual(catalog);
  });

  it("ids are unique (case-insensitively) per game", () => {
    const keys = {
      cards: catalog.cards.map((c) => `${c.game}:${c.card.id.toLowerCase()}`),
      sealed: catalog.sealed.map((s) => `${s.game}:${s.product.id.toLowerCase()}`),
      expansions: catalog.expansions.map((e) => `${e.game}:${e.expansion.id.toLowerCase()}`),
    };
    for (const [kind, list] of Object.entries(keys)) expect(new Set(list).size, kind).toBe(list.length);
  });

  it("cards have exactly one front image and one variant, medium === large", () => {
    const p = problems();
    const variantNames = new Set(["normal", "holofoil", "reverseHolofoil", "firstEdition"]);
    for (const { game, card } of catalog.cards) {
      const img = card.images[0];
      p.check(card.images.length === 1 && img.type === "front", () => `${card.id}: images`);
      p.check(img.medium === img.large, () => `${card.id}: medium !== large`);
      p.check(img.small === `${IMAGE_HOST}/${game}/${card.id}/small.png`, () => `${card.id}: small url ${img.small}`);
      p.check(img.large === `${IMAGE_HOST}/${game}/${card.id}/large.png`, () => `${card.id}: large url ${img.large}`);
      p.check(card.variants.length === 1 && variantNames.has(card.variants[0].name), () => `${card.id}: variants`);
      p.check(
        JSON.stringify(card.variants[0].images) === JSON.stringify(card.images),
        () => `${card.id}: variant images`,
      );
    }
    expect(p.list).toEqual([]);
  });

  it("language codes are valid per game and match the expansion", () => {
    const p = problems();
    for (const { game, card } of catalog.cards) {
      p.check(
        GAME_LANGUAGES[game].includes(card.language_code),
        () => `${card.id}: ${card.language_code} not printed for ${game}`,
      );
      p.check(card.language === LANGUAGE_NAMES[card.language_code], () => `${card.id}: language ${card.language}`);
      p.check(card.expansion.language_code === card.language_code, () => `${card.id}: expansion language`);
    }
    for (const e of catalog.expansions) {
      p.check(GAME_LANGUAGES[e.game].includes(e.expansion.language_code), () => `${e.expansion.id}: language`);
      p.check(
        e.expansion.language_code === "en" || !!e.expansion.translation?.en.name,
        () => `${e.expansion.id}: translation`,
      );
    }
    expect(p.list).toEqual([]);
  });

  it("game-specific fields", () => {
    const p = problems();
    for (const { game, card } of catalog.cards) {
      const id = card.id;
      p.check(card.tcgplayer_id === null || /^\d+$/.test(card.tcgplayer_id), () => `${id}: tcgplayer_id`);
      p.check(typeof card.number === "string" && card.number.length > 0, () => `${id}: number`);
      if (game === "pokemon") {
        p.check(["Pokémon", "Trainer", "Energy"].includes(card.supertype ?? ""), () => `${id}: supertype`);
        p.check(card.type === undefined && card.cost === undefined, () => `${id}: One Piece fields on a Pokémon card`);
        if (card.supertype === "Pokémon") {
          p.check(/^\d+$/.test(card.hp ?? ""), () => `${id}: hp ${card.hp}`);
          p.check(card.types?.length === 1, () => `${id}: types`);
          p.check((card.attacks?.length ?? 0) > 0, () => `${id}: attacks`);
          for (const a of card.attacks ?? []) {
            p.check(a.converted_energy_cost === a.cost.length, () => `${id}: converted_energy_cost`);
            p.check(a.damage === undefined || /^\d+[+×]?$/.test(a.damage), () => `${id}: damage ${a.damage}`);
            p.check(a.damage !== undefined || a.text !== undefined, () => `${id}: empty attack`);
          }
        } else {
          p.check(card.hp === undefined && card.attacks === undefined, () => `${id}: hp/attacks on non-Pokémon`);
        }
      }
      if (game === "onepiece") {
        p.check(
          ["Leader", "Character", "Event", "Stage", "DON!!"].includes(card.type ?? ""),
          () => `${id}: type ${card.type}`,
        );
        p.check(card.supertype === undefined, () => `${id}: supertype`);
        p.check(card.block === undefined || ["1", "2", "3", "4", "5", "X"].includes(card.block), () => `${id}: block`);
        if (card.type === "Leader")
          p.check(/^[1-9]\d*$/.test(card.life ?? "") && card.cost === undefined, () => `${id}: leader life/cost`);
        else p.check(card.life === undefined, () => `${id}: life on non-leader`);
        if (card.type === "Character")
          p.check(card.cost !== undefined && card.power !== undefined, () => `${id}: character cost/power`);
        for (const k of ["cost", "power", "counter", "life"] as const)
          p.check(
            card[k] === undefined || /^\d+$/.test(card[k]),
            () => `${id}: ${k} ${card[k]} is not a string of digits`,
          );
      }
      if (game === "azuki") p.check(card.tcgplayer_id === null, () => `${id}: azuki tcgplayer_id`);
    }
    expect(p.list).toEqual([]);
  });

  it("variant flags agree with ids and variant names", () => {
    const p = problems();
    for (const rec of catalog.cards) {
      const v = rec.card.variants[0].name;
      p.check(rec.is_reverse === (v === "reverseHolofoil"), () => `${rec.card.id}: is_reverse`);
      p.check(rec.is_first_edition === (v === "firstEdition"), () => `${rec.card.id}: is_first_edition`);
      const variantId = rec.game === "pokemon" ? /v(fe|rh)$/ : /v(aa|ab)(-JP)?$/;
      p.check(rec.is_variant === variantId.test(rec.card.id), () => `${rec.card.id}: is_variant`);
    }
    expect(p.list).toEqual([]);
  });

  it("every family code has exactly one base printing per language", () => {
    const base = new Map<string, number>();
    for (const rec of catalog.cards) {
      if (rec.is_variant) continue;
      const key = `${rec.game}:${rec.card.code}:${rec.card.language_code}`;
      base.set(key, (base.get(key) ?? 0) + 1);
    }
    expect([...base.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    const codes = new Set(
      catalog.cards.filter((c) => !c.is_variant).map((c) => `${c.game}:${c.card.code}:${c.card.language_code}`),
    );
    const orphans = catalog.cards.filter(
      (c) => c.is_variant && !codes.has(`${c.game}:${c.card.code}:${c.card.language_code}`),
    );
    expect(orphans.map((c) => c.card.id)).toEqual([]);
    const multiLanguage = new Map<string, Set<string>>();
    for (const c of catalog.cards) {
      const key = `${c.game}:${c.card.code}`;
      if (!multiLanguage.has(key)) multiLanguage.set(key, new Set());
      multiLanguage.get(key)!.add(c.card.language_code);
    }
    expect([...multiLanguage.values()].filter((s) => s.size === 3).length).toBeGreaterThan(50);
  });

  it("expansions are ordered by game then release date; cards by expansion then number", () => {
    const p = problems();
    const games = ["pokemon", "onepiece", "azuki"];
    const exps = catalog.expansions;
    for (let i = 1; i < exps.length; i++) {
      const [a, b] = [exps[i - 1], exps[i]];
      const [ga, gb] = [games.indexOf(a.game), games.indexOf(b.game)];
      p.check(
        ga < gb || (ga === gb && a.expansion.release_date! <= b.expansion.release_date!),
        () => `${a.expansion.id} before ${b.expansion.id}`,
      );
    }
    const position = new Map(exps.map((e, i) => [`${e.game}:${e.expansion.id}`, i]));
    for (let i = 1; i < catalog.cards.length; i++) {
      const [a, b] = [catalog.cards[i - 1], catalog.cards[i]];
      const pa = position.get(`${a.game}:${a.card.expansion.id}`)!;
      const pb = position.get(`${b.game}:${b.card.expansion.id}`)!;
      p.check(
        pa < pb || (pa === pb && compareNumbers(a.card.number, b.card.number) <= 0),
        () => `${a.card.id} before ${b.card.id}`,
      );
    }
    expect(p.list).toEqual([]);
  });

  it("expansion records are consistent with their cards", () => {
    const p = problems();
    const base = new Map<string, number>();
    for (const rec of catalog.cards) {
      const key = `${rec.game}:${rec.card.expansion.id}`;
      if (!rec.is_variant) base.set(key, (base.get(key) ?? 0) + 1);
    }
    for (const e of catalog.expansions) {
      const key = `${e.game}:${e.expansion.id}`;
      p.check(
        base.get(key) === e.expansion.total,
        () => `${key}: ${base.get(key)} base rows vs total ${e.expansion.total}`,
      );
      p.check(
        e.card_count.total === e.expansion.total && e.card_count.official <= e.card_count.total,
        () => `${key}: card_count`,
      );
      p.check(DATE.test(e.expansion.release_date ?? ""), () => `${key}: release_date`);
      p.check(e.expansion.logo === `${IMAGE_HOST}/${e.game}/sets/${e.expansion.id}/logo.png`, () => `${key}: logo`);
      p.check(
        e.expansion.symbol === `${IMAGE_HOST}/${e.game}/sets/${e.expansion.id}/symbol.png`,
        () => `${key}: symbol`,
      );
    }
    const byKey = new Map(catalog.expansions.map((e) => [`${e.game}:${e.expansion.id}`, JSON.stringify(e.expansion)]));
    const seen = new Set<string>();
    for (const rec of catalog.cards) {
      const key = `${rec.game}:${rec.card.expansion.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      p.check(
        byKey.get(key) === JSON.stringify(rec.card.expansion),
        () => `${key}: inline expansion differs from record`,
      );
    }
    expect(p.list).toEqual([]);
    expect(catalog.expansions.filter((e) => !e.listed).length).toBeGreaterThanOrEqual(3);
  });

  it("every card carries market_updated_at, equal to its pricing's when that has one", () => {
    const p = problems();
    for (const { card, pricing } of catalog.cards) {
      const at = card.market_updated_at;
      p.check(
        typeof at === "string" && ISO.test(at) && Date.parse(at) <= REF,
        () => `${card.id}: market_updated_at ${at}`,
      );
      if (pricing?.market_updated_at !== undefined)
        p.check(at === pricing.market_updated_at, () => `${card.id}: differs from pricing`);
    }
    expect(p.list).toEqual([]);
  });

  it("card pricing shapes", () => {
    const p = problems();
    const ladder = "NM,LP,MP,HP,DMG";
    for (const { card, pricing } of catalog.cards) {
      if (!pricing) continue;
      const id = card.id;
      p.check(pricing.currency === "USD" && "market" in pricing && "graded" in pricing, () => `${id}: required keys`);
      p.check(
        pricing.market === null || (pricing.market > 0 && cents(pricing.market)),
        () => `${id}: market ${pricing.market}`,
      );
      if (pricing.market_updated_at) {
        p.check(
          ISO.test(pricing.market_updated_at) && Date.parse(pricing.market_updated_at) <= REF,
          () => `${id}: market_updated_at`,
        );
      }
      p.check(!pricing.trend_7d || ["up", "down", "flat"].includes(pricing.trend_7d.direction), () => `${id}: trend`);
      if (pricing.conditions) {
        p.check(pricing.conditions.map((c) => c.condition).join(",") === ladder, () => `${id}: condition ladder`);
        for (let i = 1; i < pricing.conditions.length; i++) {
          p.check(
            pricing.conditions[i].price < pricing.conditions[i - 1].price,
            () => `${id}: conditions not descending`,
          );
        }
      }
      for (const g of pricing.graded) {
        p.check(["PSA", "BGS", "CGC"].includes(g.company), () => `${id}: company`);
        p.check(
          ["low", "med", "high"].includes(g.confidence) && ["sold", "blended", "feed"].includes(g.value_kind),
          () => `${id}: graded enums`,
        );
        p.check("low" in g && "high" in g, () => `${id}: low/high keys must be present`);
        p.check(
          g.low === null || g.high === null || (g.low <= g.value && g.value <= g.high),
          () => `${id}: graded range`,
        );
        p.check(!g.last_sold_at || Date.parse(g.last_sold_at) <= REF, () => `${id}: last_sold_at`);
      }
    }
    expect(p.list).toEqual([]);
    const priced = catalog.cards.filter((c) => c.pricing?.market != null);
    expect(priced.length / catalog.cards.length).toBeGreaterThan(0.6);
    expect(catalog.cards.some((c) => c.pricing?.graded.some((g) => g.band && g.last_sold_at))).toBe(true);
  });

  it("sealed product shapes", () => {
    const p = problems();
    for (const { game, product, pricing } of catalog.sealed) {
      const id = product.id;
      p.check(
        (SEALED_PRODUCT_TYPES as readonly string[]).includes(product.product_type ?? ""),
        () => `${id}: product_type`,
      );
      p.check(
        product.images.length === 1 && product.images[0].medium === product.images[0].large,
        () => `${id}: images`,
      );
      p.check(product.release_date === product.expansion.release_date, () => `${id}: release_date`);
      p.check(GAME_LANGUAGES[game].includes(product.language_code), () => `${id}: language`);
      if (game === "azuki") {
        p.check(
          (product.msrp ?? 0) > 0 && pricing?.market === null && pricing.history === undefined,
          () => `${id}: azuki msrp/market`,
        );
        continue;
      }
      p.check(product.msrp === undefined, () => `${id}: msrp on a market-priced product`);
      if (!pricing) continue;
      p.check(pricing.currency === "USD" && pricing.market !== null && cents(pricing.market), () => `${id}: market`);
      p.check(
        JSON.stringify(pricing.conditions) === JSON.stringify([{ condition: "sealed", price: pricing.market }]),
        () => `${id}: conditions`,
      );
      if (pricing.is_on_sale) p.check((pricing.sale_price ?? Infinity) < pricing.market!, () => `${id}: sale_price`);
      else p.check(pricing.sale_price === undefined, () => `${id}: sale_price without sale`);
      if (pricing.history) {
        const dates = pricing.history.map((h) => h.date);
        p.check(dates.length > 0 && dates.length <= 30, () => `${id}: history length ${dates.length}`);
        p.check([...dates].sort().join() === dates.join(), () => `${id}: history order`);
        p.check(dates[dates.length - 1] === REFERENCE_DATE.slice(0, 10), () => `${id}: history end`);
      }
    }
    expect(p.list).toEqual([]);
    for (const game of ["pokemon", "onepiece", "azuki"]) expect(catalog.sealed.some((s) => s.game === game)).toBe(true);
  });

  it("certs link to real cards and look like real cert numbers", () => {
    const p = problems();
    const cards = new Map(catalog.cards.map((c) => [c.card.id, c]));
    const pops = new Map<string, string>();
    for (const cert of catalog.certs) {
      const card = cards.get(cert.card_id);
      p.check(card !== undefined && card.game === cert.game, () => `${cert.cert_number}: card ${cert.card_id}`);
      p.check(
        cert.provider === "PSA" ? /^\d{8,9}$/.test(cert.cert_number) : /^\d{10}$/.test(cert.cert_number),
        () => `${cert.provider} ${cert.cert_number}`,
      );
      p.check(ISO.test(cert.graded_at) && Date.parse(cert.graded_at) <= REF, () => `${cert.cert_number}: graded_at`);
      p.check(cert.population > 0 && cert.population_higher >= 0, () => `${cert.cert_number}: population`);
      const key = `${cert.card_id}:${cert.provider}:${cert.grade}`;
      const value = `${cert.population}/${cert.population_higher}`;
      p.check((pops.get(key) ?? value) === value, () => `${key}: inconsistent population`);
      pops.set(key, value);
    }
    expect(p.list).toEqual([]);
    const keys = catalog.certs.map((c) => `${c.provider}:${c.cert_number}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(catalog.certs.map((c) => c.provider))).toEqual(new Set(["PSA", "BGS", "CGC"]));
  });
});
