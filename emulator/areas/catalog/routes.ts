import { notFound } from "../../pipeline/errors.ts";
import { ok, serve, type Reply, type RouteSpec } from "../../pipeline/route.ts";
import { successText } from "../../pipeline/envelope.ts";
import type { Services } from "../../pipeline/services.ts";
import {
  CATALOG,
  PRINTINGS_CAP,
  catalogPage,
  type CardPrices,
  type CertRef,
  type GradedCertBatch,
  type SealedPrices,
} from "../../../contract/index.ts";
import { applySelect, type IncludeOptions } from "./query/index.ts";
import { okCached, pageReply, search } from "./search.ts";
import { catalogCardWire, certWire, fullCardPricing, fullSealedPricing, sealedWire } from "./format.ts";
import type { CardRecord, ExpansionRecord, Game, SealedRecord } from "../../catalog-data/model.ts";

// The Card Data operations (contract/catalog/operations.ts): method, path, access,
// cost, answers and the validation of every query field come from the contract
// (contract/catalog/query.ts parses each into what the handler reads), so a wrong
// parameter answers its 400 before a missing record's 404.

const gate = "catalog";

interface GameId {
  game: Game;
  id: string;
}

function findCard(services: Services, { game, id }: GameId): CardRecord {
  const rec = services.catalog.card(game, id);
  if (!rec) throw notFound(`No ${game} card with id "${id}"`);
  return rec;
}

function findExpansion(services: Services, { game, id }: GameId): ExpansionRecord {
  const rec = services.catalog.expansion(game, id);
  if (!rec) throw notFound(`No ${game} expansion with id "${id}"`);
  return rec;
}

function findSealed(services: Services, { game, id }: GameId): SealedRecord {
  const rec = services.catalog.sealedProduct(game, id);
  if (!rec) throw notFound(`No ${game} sealed product with id "${id}"`);
  return rec;
}

interface Shape {
  include: IncludeOptions;
  select: readonly string[] | null;
}

const catalogCardWireFor =
  ({ include, select }: Shape) =>
  (rec: CardRecord) =>
    applySelect(catalogCardWire(rec, include.prices), select);
const sealedWireFor =
  ({ include, select }: Shape) =>
  (rec: SealedRecord) =>
    applySelect(sealedWire(rec, include.prices), select);
const expansionWireFor =
  ({ select }: { select: readonly string[] | null }) =>
  (rec: ExpansionRecord) =>
    applySelect(rec.expansion, select);

/**
 * A single card's 200, serialised once per card and format (include, select): the catalog never
 * changes after start, so the same answer (data, its JSON, the whole envelope) serves every request.
 */
const cardReplies = new WeakMap<CardRecord, Map<string, Reply>>();
function cardReply(rec: CardRecord, shape: Shape): Reply {
  const format = `${shape.include.prices ? "p" : ""}|${shape.select?.join(",") ?? ""}`;
  let byFormat = cardReplies.get(rec);
  if (!byFormat) cardReplies.set(rec, (byFormat = new Map()));
  let reply = byFormat.get(format);
  if (!reply) {
    const r = okCached(catalogCardWireFor(shape)(rec));
    reply = { ...r, text: successText(r) };
    // A select list is the caller's text: keep a bounded number of them per card.
    if (byFormat.size < 16) byFormat.set(format, reply);
  }
  return reply;
}

/** The family's own printing (id = code) first, then other base printings, then variants. */
function baseRank(r: CardRecord): number {
  return r.card.id === r.card.code ? 0 : r.is_variant ? 2 : 1;
}

export const catalogRoutes: RouteSpec[] = [
  serve(CATALOG.cardsSearch, {
    gate,
    handle: (c) => {
      const { game } = c.input.params;
      return search({
        resource: "cards",
        game,
        query: c.input.query,
        records: c.services.catalog.cards(game),
        source: "cards",
        languageOf: (r) => r.card.language_code,
        defaultLanguage: true,
        codeOf: (r) => r.card.code,
        baseRank,
        toWire: catalogCardWireFor(c.input.query),
      });
    },
  }),

  // The hot path: the contract's schema reads include and select; the answer is cached per card and format.
  serve(CATALOG.cardsGet, {
    gate,
    handle: (c) => cardReply(findCard(c.services, c.input.params), c.input.query),
  }),

  serve(CATALOG.cardsPrices, {
    gate,
    handle: (c) => {
      const rec = findCard(c.services, c.input.params);
      const data: CardPrices = { card_id: rec.card.id, pricing: fullCardPricing(rec.pricing) };
      return ok(data);
    },
  }),

  serve(CATALOG.cardsPrintings, {
    gate,
    handle: (c) => {
      const anchor = findCard(c.services, c.input.params);
      const { query } = c.input;
      // Paged like every catalog list (page/page_size and limit/offset); the live
      // server's 50-row cap is the default and the largest page; total_count is the
      // true family size. language is honoured here but not defaulted.
      const page = catalogPage(query, PRINTINGS_CAP);
      const languages = query.language ?? null;
      const family = c.services.catalog
        .printings(anchor)
        .filter((r) => !languages || languages.has(r.card.language_code));
      return pageReply(
        family.slice(page.offset, page.offset + page.limit),
        family.length,
        page,
        catalogCardWireFor(query),
        languages ? [...languages].join(",") : "all",
      );
    },
  }),

  serve(CATALOG.cardsPriceHistory, {
    gate,
    handle: () => {
      throw notFound("Card price history is announced but not live yet; this call costs nothing");
    },
  }),

  serve(CATALOG.expansionsSearch, {
    gate,
    handle: (c) => {
      const { game } = c.input.params;
      return search({
        resource: "expansions",
        game,
        query: c.input.query,
        records: c.services.catalog.expansions(game),
        source: "expansions",
        languageOf: (r) => r.expansion.language_code,
        defaultLanguage: true,
        toWire: expansionWireFor(c.input.query),
      });
    },
  }),

  serve(CATALOG.expansionsGet, {
    gate,
    handle: (c) => ok(expansionWireFor(c.input.query)(findExpansion(c.services, c.input.params))),
  }),

  serve(CATALOG.expansionsCards, {
    gate,
    handle: (c) => {
      const { game, id } = c.input.params;
      findExpansion(c.services, c.input.params);
      return search({
        resource: "cards",
        game,
        query: c.input.query,
        records: c.services.catalog.expansionCards(game, id),
        source: "expansion-cards",
        languageOf: (r) => r.card.language_code,
        defaultLanguage: false,
        codeOf: (r) => r.card.code,
        baseRank,
        toWire: catalogCardWireFor(c.input.query),
      });
    },
  }),

  serve(CATALOG.sealedSearch, {
    gate,
    handle: (c) => {
      const { game } = c.input.params;
      const types = c.input.query.product_type;
      return search({
        resource: "sealed",
        game,
        query: c.input.query,
        records: c.services.catalog.sealed(game),
        source: `sealed:${[...(types ?? [])].sort().join(",")}`,
        languageOf: (r) => r.product.language_code,
        defaultLanguage: true,
        filter: types
          ? (r: SealedRecord) => r.product.product_type !== undefined && types.has(r.product.product_type)
          : undefined,
        toWire: sealedWireFor(c.input.query),
      });
    },
  }),

  serve(CATALOG.sealedGet, {
    gate,
    handle: (c) => ok(sealedWireFor(c.input.query)(findSealed(c.services, c.input.params))),
  }),

  serve(CATALOG.sealedPrices, {
    gate,
    handle: (c) => {
      const rec = findSealed(c.services, c.input.params);
      const data: SealedPrices = { product_id: rec.product.id, pricing: fullSealedPricing(rec.pricing) };
      return ok(data);
    },
  }),

  serve(CATALOG.certsBatch, { gate, handle: (c) => certBatch(c.services, c.input.query.certs) }),
  serve(CATALOG.certsBatchPost, { gate, handle: (c) => certBatch(c.services, c.input.body.certs) }),

  serve(CATALOG.certsGet, {
    gate,
    handle: (c) => {
      const { provider, certNumber } = c.input.params;
      const cert = c.services.catalog.cert(provider, certNumber);
      if (!cert) throw notFound(`No ${provider.toUpperCase()} certificate ${certNumber}`);
      return ok(certWire(cert, c.services.catalog.card(cert.game, cert.card_id)));
    },
  }),
];

/** A batch the contract's schema checked (count, emptiness, each cert number's length): each entry found or not. */
function certBatch(services: Services, refs: readonly CertRef[]) {
  const results = refs.map((ref) => {
    const cert = services.catalog.cert(ref.provider, ref.cert_number);
    return cert
      ? {
          provider: ref.provider.toUpperCase(),
          cert_number: ref.cert_number,
          found: true as const,
          cert: certWire(cert, services.catalog.card(cert.game, cert.card_id)),
        }
      : { provider: ref.provider.toUpperCase(), cert_number: ref.cert_number, found: false as const };
  });
  const found = results.filter((r) => r.found).length;
  const data: GradedCertBatch = { results, found, not_found: results.length - found };
  return ok(data);
}
