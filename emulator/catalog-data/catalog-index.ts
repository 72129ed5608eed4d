import type { Catalog, CardRecord, ExpansionRecord, Game, GradedCert, SealedRecord } from "./model.ts";
import { GAME_LANGUAGES } from "./model.ts";

// Read-only, indexed in-memory collections over the seeded catalog. Catalog
// reads never touch the mutable store (see docs/decisions.md: latency on the
// ~40k-card catalog), so snapshots stay cheap.

const lc = (s: string) => s.toLowerCase();

export class CatalogIndex {
  readonly catalog: Catalog;
  private cardsByGame = new Map<Game, CardRecord[]>();
  private cardById = new Map<string, CardRecord>();
  private byCode = new Map<string, CardRecord[]>();
  private expansionsByGame = new Map<Game, ExpansionRecord[]>();
  private listedByGame = new Map<Game, ExpansionRecord[]>();
  private expansionById = new Map<string, ExpansionRecord>();
  private cardsByExpansion = new Map<string, CardRecord[]>();
  private sealedByGame = new Map<Game, SealedRecord[]>();
  private sealedById = new Map<string, SealedRecord>();
  private certByKey = new Map<string, GradedCert>();

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    for (const rec of catalog.cards) {
      push(this.cardsByGame, rec.game, rec);
      this.cardById.set(`${rec.game}:${lc(rec.card.id)}`, rec);
      push(this.byCode, `${rec.game}:${rec.card.code}`, rec);
      push(this.cardsByExpansion, `${rec.game}:${lc(rec.card.expansion.id)}`, rec);
    }
    for (const rec of catalog.expansions) {
      push(this.expansionsByGame, rec.game, rec);
      this.expansionById.set(`${rec.game}:${lc(rec.expansion.id)}`, rec);
    }
    for (const rec of catalog.sealed) {
      push(this.sealedByGame, rec.game, rec);
      this.sealedById.set(`${rec.game}:${lc(rec.product.id)}`, rec);
    }
    for (const [game, list] of this.expansionsByGame)
      this.listedByGame.set(
        game,
        list.filter((e) => e.listed),
      );
    for (const cert of catalog.certs) this.certByKey.set(certKey(cert.provider, cert.cert_number), cert);
  }

  cards(game: Game): readonly CardRecord[] {
    return this.cardsByGame.get(game) ?? [];
  }

  /** Ids match case-insensitively; a Pokémon id on /onepiece is simply not found. */
  card(game: Game, id: string): CardRecord | undefined {
    return this.cardById.get(`${game}:${lc(id)}`);
  }

  /** Any game: for lookups by card id alone (grading, mystery prices). */
  cardAnyGame(id: string): CardRecord | undefined {
    for (const game of this.cardsByGame.keys()) {
      const rec = this.card(game, id);
      if (rec) return rec;
    }
    return undefined;
  }

  /** All printings sharing the card's code: anchor's language first, then alphabetical by language, then id. */
  printings(anchor: CardRecord): CardRecord[] {
    const family = this.byCode.get(`${anchor.game}:${anchor.card.code}`) ?? [anchor];
    const order = GAME_LANGUAGES[anchor.game];
    const anchorLang = anchor.card.language_code;
    return [...family].sort((a, b) => {
      const la = a.card.language_code === anchorLang ? -1 : order.indexOf(a.card.language_code);
      const lb = b.card.language_code === anchorLang ? -1 : order.indexOf(b.card.language_code);
      if (la !== lb) return la - lb;
      return a.card.language_code.localeCompare(b.card.language_code) || a.card.id.localeCompare(b.card.id);
    });
  }

  /** Listed expansions only (promo/tin/UPC sets are inline on cards but 404 here). */
  expansions(game: Game): readonly ExpansionRecord[] {
    return this.listedByGame.get(game) ?? [];
  }

  expansion(game: Game, id: string): ExpansionRecord | undefined {
    const rec = this.expansionById.get(`${game}:${lc(id)}`);
    return rec?.listed ? rec : undefined;
  }

  /** Cards listed under their home expansion. */
  expansionCards(game: Game, expansionId: string): readonly CardRecord[] {
    return this.cardsByExpansion.get(`${game}:${lc(expansionId)}`) ?? [];
  }

  sealed(game: Game): readonly SealedRecord[] {
    return this.sealedByGame.get(game) ?? [];
  }

  sealedProduct(game: Game, id: string): SealedRecord | undefined {
    return this.sealedById.get(`${game}:${lc(id)}`);
  }

  cert(provider: string, certNumber: string): GradedCert | undefined {
    return this.certByKey.get(certKey(provider, certNumber));
  }

  providers(): string[] {
    return [...new Set(this.catalog.certs.map((c) => c.provider.toUpperCase()))].sort();
  }
}

export const certKey = (provider: string, certNumber: string) => `${provider.toUpperCase()}:${certNumber.trim()}`;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
