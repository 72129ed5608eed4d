import { badRequest, notFound } from "../../pipeline/errors.ts";
import { checkIdArray, parseCatalogPage } from "../../pipeline/pagination.ts";
import { checkIdentifier } from "../../pipeline/identifiers.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import type { AccessRule } from "../../pipeline/auth.ts";
import { parseInclude, parseSelect, applySelect, parseLanguage, parseProductTypes } from "./query/index.ts";
import { okCached, pageReply, search, toApiError } from "./search.ts";
import { cardWire, certWire, fullCardPricing, fullSealedPricing, sealedWire } from "./format.ts";
import type { CardRecord, Game, SealedRecord } from "../../catalog-data/model.ts";

// The twelve Card Data paths of the interface document (+ the announced,
// not-live price history). Every read costs 1 credit, `include=prices` is free.

const CATALOG: AccessRule = { kinds: ["partner", "legacy"], scopes: ["read:catalog"] };
const G = ":game{pokemon|onepiece|azuki}";
const PRINTINGS_CAP = 50;

const route = (path: string, handle: RouteSpec["handle"], method: RouteSpec["method"] = "GET"): RouteSpec => ({
  method,
  path,
  access: CATALOG,
  envelope: "partner",
  cost: 1,
  gate: "catalog",
  handle,
});

const gameOf = (c: HandlerContext) => c.params.game as Game;

/** Wraps query-module errors (QueryError) into 400 envelopes. */
function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw toApiError(err);
  }
}

function findCard(c: HandlerContext): CardRecord {
  const rec = c.services.catalog.card(gameOf(c), c.params.id);
  if (!rec) throw notFound(`No ${gameOf(c)} card with id "${c.params.id}"`);
  return rec;
}

export const catalogRoutes: RouteSpec[] = [
  route(`/${G}/cards`, (c) =>
    search({
      resource: "cards",
      game: gameOf(c),
      query: c.query,
      records: c.services.catalog.cards(gameOf(c)),
      source: "cards",
      languageOf: (r) => r.card.language_code,
      defaultLanguage: true,
      codeOf: (r) => r.card.code,
      baseRank,
      toWire: cardWireFor(c, "cards"),
    }),
  ),

  route(`/${G}/cards/:id`, (c) => {
    const toWire = cardWireFor(c, "cards");
    return okCached(toWire(findCard(c)));
  }),

  route(`/${G}/cards/:id/prices`, (c) => {
    const rec = findCard(c);
    return ok({ card_id: rec.card.id, pricing: fullCardPricing(rec.pricing) });
  }),

  route(`/${G}/cards/:id/printings`, (c) => {
    const anchor = findCard(c);
    const toWire = cardWireFor(c, "cards");
    // Paged like every catalog list (page/page_size and limit/offset); the live
    // server's 50-row cap is the default and the largest page; total_count is the
    // true family size.
    const page = parseCatalogPage(c.query, { maxSize: PRINTINGS_CAP });
    // language is honoured here but not defaulted
    const languages = guarded(() => parseLanguage(c.query.get("language") ?? undefined)) ?? null;
    const family = c.services.catalog
      .printings(anchor)
      .filter((r) => !languages || languages.has(r.card.language_code));
    return pageReply(family.slice(page.offset, page.offset + page.limit), family.length, page, toWire, languages ? [...languages].join(",") : "all");
  }),

  {
    ...route(`/${G}/cards/:id/price-history`, () => {
      throw notFound("Card price history is announced but not live yet; this call costs nothing");
    }),
    cost: undefined,
  },

  route(`/${G}/expansions`, (c) =>
    search({
      resource: "expansions",
      game: gameOf(c),
      query: checkNoInclude(c.query),
      records: c.services.catalog.expansions(gameOf(c)),
      source: "expansions",
      languageOf: (r) => r.expansion.language_code,
      defaultLanguage: true,
      toWire: selectWire(c, "expansions", (r) => r.expansion),
    }),
  ),

  route(`/${G}/expansions/:id`, (c) => {
    checkNoInclude(c.query);
    const rec = c.services.catalog.expansion(gameOf(c), c.params.id);
    if (!rec) throw notFound(`No ${gameOf(c)} expansion with id "${c.params.id}"`);
    return ok(selectWire(c, "expansions", (r: typeof rec) => r.expansion)(rec));
  }),

  route(`/${G}/expansions/:id/cards`, (c) => {
    const game = gameOf(c);
    if (!c.services.catalog.expansion(game, c.params.id)) throw notFound(`No ${game} expansion with id "${c.params.id}"`);
    return search({
      resource: "cards",
      game,
      query: c.query,
      records: c.services.catalog.expansionCards(game, c.params.id),
      source: "expansion-cards",
      languageOf: (r) => r.card.language_code,
      defaultLanguage: false,
      codeOf: (r) => r.card.code,
      baseRank,
      toWire: cardWireFor(c, "cards"),
    });
  }),

  route(`/${G}/sealed`, (c) => {
    const game = gameOf(c);
    const types = guarded(() => parseProductTypes(c.query.get("product_type") ?? undefined));
    return search({
      resource: "sealed",
      game,
      query: c.query,
      records: c.services.catalog.sealed(game),
      source: `sealed:${[...(types ?? [])].sort().join(",")}`,
      languageOf: (r) => r.product.language_code,
      defaultLanguage: true,
      filter: types ? (r: SealedRecord) => r.product.product_type !== undefined && types.has(r.product.product_type) : undefined,
      toWire: sealedWireFor(c),
    });
  }),

  route(`/${G}/sealed/:id`, (c) => {
    const rec = c.services.catalog.sealedProduct(gameOf(c), c.params.id);
    if (!rec) throw notFound(`No ${gameOf(c)} sealed product with id "${c.params.id}"`);
    return ok(sealedWireFor(c)(rec));
  }),

  route(`/${G}/sealed/:id/prices`, (c) => {
    const rec = c.services.catalog.sealedProduct(gameOf(c), c.params.id);
    if (!rec) throw notFound(`No ${gameOf(c)} sealed product with id "${c.params.id}"`);
    return ok({ product_id: rec.product.id, pricing: fullSealedPricing(rec.pricing) });
  }),

  route(`/grading/certs/batch`, (c) => certBatch(c, certsFromQuery(c.query))),
  route(`/grading/certs/batch`, async (c) => certBatch(c, certsFromBody(await c.json())), "POST"),

  route(`/grading/certs/:provider/:certNumber`, (c) => {
    const cert = c.services.catalog.cert(c.params.provider, c.params.certNumber);
    if (!cert) throw notFound(`No ${c.params.provider.toUpperCase()} certificate ${c.params.certNumber}`);
    return ok(certWire(cert, c.services.catalog.card(cert.game, cert.card_id)));
  }),
];

/** The family's own printing (id = code) first, then other base printings, then variants. */
function baseRank(r: CardRecord): number {
  return r.card.id === r.card.code ? 0 : r.is_variant ? 2 : 1;
}

function cardWireFor(c: HandlerContext, resource: "cards") {
  const include = guarded(() => parseInclude(c.query.get("include") ?? undefined, resource));
  const select = guarded(() => parseSelect(c.query.get("select") ?? undefined, resource));
  return (rec: CardRecord) => applySelect(cardWire(rec, include.prices), select);
}

function sealedWireFor(c: HandlerContext) {
  const include = guarded(() => parseInclude(c.query.get("include") ?? undefined, "sealed"));
  const select = guarded(() => parseSelect(c.query.get("select") ?? undefined, "sealed"));
  return (rec: Parameters<typeof sealedWire>[0]) => applySelect(sealedWire(rec, include.prices), select);
}

function selectWire<R, W extends { id: string }>(c: HandlerContext, resource: "expansions", wire: (r: R) => W) {
  const select = guarded(() => parseSelect(c.query.get("select") ?? undefined, resource));
  return (rec: R) => applySelect(wire(rec), select);
}

function checkNoInclude(query: URLSearchParams): URLSearchParams {
  guarded(() => parseInclude(query.get("include") ?? undefined, "expansions"));
  return query;
}

interface CertRef {
  provider: string;
  cert_number: string;
}

function certsFromQuery(query: URLSearchParams): CertRef[] {
  const raw = query.get("certs");
  if (raw === null) throw badRequest("invalid_value", 'Pass certs as ?certs=PSA:12345678,BGS:0012345 or POST {"certs":[{"provider","cert_number"}]}');
  return raw
    .split(",")
    .filter((s) => s.trim())
    .map((pair) => {
      const [provider, cert_number] = pair.split(":");
      if (!provider || !cert_number) throw badRequest("invalid_value", `"${pair}" is not PROVIDER:CERT_NUMBER`);
      return { provider: provider.trim(), cert_number: cert_number.trim() };
    });
}

function certsFromBody(body: unknown): CertRef[] {
  const list = (body as { certs?: unknown } | null)?.certs;
  if (!Array.isArray(list)) throw badRequest("invalid_value", 'Body must be {"certs":[{"provider":"PSA","cert_number":"12345678"}]}');
  return list.map((item, i) => {
    const ref = item as Partial<CertRef> | null;
    if (!ref || typeof ref.provider !== "string" || typeof ref.cert_number !== "string")
      throw badRequest("invalid_value", `certs[${i}] needs string provider and cert_number`);
    return { provider: ref.provider, cert_number: ref.cert_number };
  });
}

function certBatch(c: HandlerContext, refs: CertRef[]) {
  checkIdArray(refs, "certs");
  if (refs.length === 0) throw badRequest("invalid_value", "certs is empty");
  const results = refs.map((ref) => {
    checkIdentifier(ref.cert_number, "cert_number");
    const cert = c.services.catalog.cert(ref.provider, ref.cert_number);
    return cert
      ? { provider: ref.provider.toUpperCase(), cert_number: ref.cert_number, found: true, cert: certWire(cert, c.services.catalog.card(cert.game, cert.card_id)) }
      : { provider: ref.provider.toUpperCase(), cert_number: ref.cert_number, found: false };
  });
  const found = results.filter((r) => r.found).length;
  return ok({ results, found, not_found: results.length - found });
}

