// Searchable / sortable field schemas per resource (README "Card Data catalog").
import type { CardRecord, ExpansionRecord, Game, SealedRecord } from "../../../catalog-data/model.ts";
import { SEALED_PRODUCT_TYPES } from "../../../catalog-data/model.ts";
import { own } from "../../../state/own.ts";

export type Resource = "cards" | "expansions" | "sealed";

/** The internal record type each resource searches over. */
export interface RecordOf {
  cards: CardRecord;
  expansions: ExpansionRecord;
  sealed: SealedRecord;
}

export interface StringField<R> {
  type: "string";
  get: (r: R) => string | undefined;
  sortable: boolean;
  /** `exact`: `field:value` is a whole-value match even without `!` (codes). */
  match?: "exact";
  /** Closed vocabulary: any other query value is `invalid_value`. Implies exact matching. */
  vocabulary?: readonly string[];
  /** Sort order: `natural` compares digit runs numerically (card numbers). */
  order?: "natural";
}

export interface ListField<R> {
  type: "string[]";
  /** The object the list derives from; its identity keys the lower-case cache. */
  source: (r: R) => unknown;
  get: (r: R) => readonly string[] | undefined;
  sortable: false;
}

export interface NumberField<R> {
  type: "number";
  get: (r: R) => number | undefined;
  sortable: boolean;
}

export interface BooleanField<R> {
  type: "boolean";
  get: (r: R) => boolean | undefined;
  sortable: boolean;
}

export interface DateField<R> {
  type: "date";
  /** `YYYY/MM/DD` (or `YYYY-MM-DD`) as stored. */
  get: (r: R) => string | undefined;
  sortable: boolean;
}

export type FieldDef<R> = StringField<R> | ListField<R> | NumberField<R> | BooleanField<R> | DateField<R>;
export type FieldSchema<R> = Readonly<Record<string, FieldDef<R>>>;

// --- builders ---------------------------------------------------------------

function str<R>(
  get: (r: R) => string | undefined,
  sortable = false,
  extra: Partial<StringField<R>> = {},
): StringField<R> {
  return { type: "string", get, sortable, ...extra };
}
function num<R>(get: (r: R) => number | undefined, sortable = false): NumberField<R> {
  return { type: "number", get, sortable };
}
function bool<R>(get: (r: R) => boolean | undefined): BooleanField<R> {
  return { type: "boolean", get, sortable: false };
}
function date<R>(get: (r: R) => string | undefined, sortable = false): DateField<R> {
  return { type: "date", get, sortable };
}
function list<R, S>(source: (r: R) => S | undefined, project: (s: S) => readonly string[]): ListField<R> {
  return {
    type: "string[]",
    source,
    get: (r) => {
      const s = source(r);
      return s === undefined ? undefined : project(s);
    },
    sortable: false,
  };
}

function definedStrings(values: (string | undefined)[]): string[] {
  return values.filter((v): v is string => v !== undefined);
}

/** `hp` and One Piece stats are strings on the wire ("120"); non-numeric or empty values count as missing. */
function numericString(s: string | undefined): number | undefined {
  if (s === undefined || s.length === 0) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

// --- cards --------------------------------------------------------------------

const rawPrice = num<CardRecord>((r) => r.pricing?.market ?? undefined, true);

/** Card fields available for every game. */
export const CARD_FIELDS: FieldSchema<CardRecord> = {
  name: str((r) => r.card.name, true),
  id: str((r) => r.card.id, true),
  code: str((r) => r.card.code),
  number: str((r) => r.card.number, true, { order: "natural" }),
  rarity: str((r) => r.card.rarity, true),
  artist: str((r) => r.card.artist),
  raw_price: rawPrice,
  market_price: rawPrice,
  is_variant: bool((r) => r.is_variant),
  is_holo: bool((r) => r.is_holo),
  is_reverse: bool((r) => r.is_reverse),
  is_first_edition: bool((r) => r.is_first_edition),
  "expansion.id": str((r) => r.card.expansion.id, true),
  "expansion.name": str((r) => r.card.expansion.name),
  "expansion.series": str((r) => r.card.expansion.series),
  "expansion.release_date": date((r) => r.card.expansion.release_date, true),
  language: str((r) => r.card.language_code, false, { match: "exact" }),
  subtypes: list(
    (r) => r.card.subtypes,
    (s) => s,
  ),
};

export const POKEMON_CARD_FIELDS: FieldSchema<CardRecord> = {
  supertype: str((r) => r.card.supertype),
  types: list(
    (r) => r.card.types,
    (s) => s,
  ),
  hp: num((r) => numericString(r.card.hp), true),
  "abilities.name": list(
    (r) => r.card.abilities,
    (a) => a.map((x) => x.name),
  ),
  "abilities.text": list(
    (r) => r.card.abilities,
    (a) => a.map((x) => x.text),
  ),
  "attacks.name": list(
    (r) => r.card.attacks,
    (a) => a.map((x) => x.name),
  ),
  "attacks.text": list(
    (r) => r.card.attacks,
    (a) => definedStrings(a.map((x) => x.text)),
  ),
  "attacks.damage": list(
    (r) => r.card.attacks,
    (a) => definedStrings(a.map((x) => x.damage)),
  ),
  "weaknesses.type": list(
    (r) => r.card.weaknesses,
    (w) => w.map((x) => x.type),
  ),
  "resistances.type": list(
    (r) => r.card.resistances,
    (w) => w.map((x) => x.type),
  ),
};

export const ONEPIECE_CARD_FIELDS: FieldSchema<CardRecord> = {
  type: str((r) => r.card.type),
  cost: num((r) => numericString(r.card.cost), true),
  power: num((r) => numericString(r.card.power), true),
  counter: num((r) => numericString(r.card.counter), true),
  life: num((r) => numericString(r.card.life), true),
  colors: list(
    (r) => r.card.colors,
    (s) => s,
  ),
  attribute: str((r) => r.card.attribute),
};

const CARD_FIELDS_BY_GAME: Record<Game, FieldSchema<CardRecord>> = {
  pokemon: { ...CARD_FIELDS, ...POKEMON_CARD_FIELDS },
  onepiece: { ...CARD_FIELDS, ...ONEPIECE_CARD_FIELDS },
  azuki: CARD_FIELDS,
};

// --- expansions ---------------------------------------------------------------

export const EXPANSION_FIELDS: FieldSchema<ExpansionRecord> = {
  name: str((r) => r.expansion.name, true),
  id: str((r) => r.expansion.id, true),
  series_id: str((r) => r.series_id),
  language: str((r) => r.expansion.language_code, false, { match: "exact" }),
  release_date: date((r) => r.expansion.release_date, true),
  "card_count.total": num((r) => r.card_count.total),
  "card_count.official": num((r) => r.card_count.official),
};

// --- sealed -------------------------------------------------------------------

/** Sealed price: market, or MSRP for MSRP-only products (Azuki). */
export function sealedPrice(r: SealedRecord): number | undefined {
  return r.pricing?.market ?? r.product.msrp;
}

export const SEALED_FIELDS: FieldSchema<SealedRecord> = {
  name: str((r) => r.product.name, true),
  id: str((r) => r.product.id, true),
  product_type: str((r) => r.product.product_type, false, { vocabulary: SEALED_PRODUCT_TYPES }),
  "expansion.id": str((r) => r.product.expansion.id),
  "expansion.name": str((r) => r.product.expansion.name),
  "expansion.release_date": date((r) => r.product.release_date ?? r.product.expansion.release_date, true),
  language: str((r) => r.product.language_code, false, { match: "exact" }),
  price: num(sealedPrice, true),
  is_on_sale: bool((r) => r.pricing?.is_on_sale ?? false),
};

// --- lookup -------------------------------------------------------------------

/** orderBy-only names that resolve to a q field. */
export const SORT_ALIASES: Readonly<Record<Resource, Readonly<Record<string, string>>>> = {
  cards: { release_date: "expansion.release_date" },
  expansions: {},
  sealed: { release_date: "expansion.release_date" },
};

/** Fields that, used positively in q, pin the language (no default `en` filter). */
export const LANGUAGE_PINNING_FIELDS: ReadonlySet<string> = new Set(["language", "id", "expansion.id"]);

export function fieldsFor<K extends Resource>(resource: K, game: Game): FieldSchema<RecordOf[K]>;
export function fieldsFor(
  resource: Resource,
  game: Game,
): FieldSchema<CardRecord> | FieldSchema<ExpansionRecord> | FieldSchema<SealedRecord> {
  switch (resource) {
    case "cards":
      return CARD_FIELDS_BY_GAME[game];
    case "expansions":
      return EXPANSION_FIELDS;
    case "sealed":
      return SEALED_FIELDS;
  }
}

/** Own entries only: a q or orderBy name like `constructor` is an unknown field, not Object's. */
export function lookupField<R>(schema: FieldSchema<R>, name: string): FieldDef<R> | undefined {
  return own(schema, name);
}

/** Games (other than `game`) whose card schema has `name` — for a helpful unknown_field message. */
export function cardFieldGames(name: string): Game[] {
  return (Object.keys(CARD_FIELDS_BY_GAME) as Game[]).filter((g) => own(CARD_FIELDS_BY_GAME[g], name) !== undefined);
}
