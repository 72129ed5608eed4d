import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CardBase, CardPricing, Expansion, OPERATIONS, SealedPricing, SealedProductBase } from "../contract/index.ts";
import { operationMatcher, type Game } from "../contract/index.ts";
import { isRecording, type CatalogOverlay } from "../emulator/index.ts";

// `npx emulator fixtures import DIR`: the catalog answers recorded by `shadow --record DIR` turned into a
// catalog overlay (`--catalog-overlay FILE`). Cards, expansions and sealed products are taken from every
// catalog read that carries them whole (lists, single records, printings, an expansion's cards, the
// prices routes); an answer narrowed by `select` is not a whole record and is left out. Later recordings win.

export interface ImportResult {
  overlay: CatalogOverlay;
  /** Recordings read, recordings that were catalog answers, records left out (not the contract's shape). */
  files: number;
  catalogFiles: number;
  skipped: number;
}

const matchOperation = operationMatcher(OPERATIONS);
type Kind = "cards" | "expansions" | "sealed";
const KINDS: ReadonlySet<string> = new Set<Kind>(["cards", "expansions", "sealed"]);
const SUBS: ReadonlySet<string | undefined> = new Set([undefined, "prices", "printings", "cards"]);

/** A catalog read whose answer carries whole records: its game, resource and sub-resource (by the contract's route). */
function catalogRead(path: string): { game: Game; kind: Kind; sub: string | undefined } | null {
  const pathname = path.split("?")[0]!;
  const op = matchOperation("GET", pathname);
  if (!op?.path.startsWith("/:game")) return null;
  const [, , kind, , sub] = op.path.split("/");
  if (!kind || !KINDS.has(kind) || !SUBS.has(sub)) return null;
  return { game: pathname.split("/")[3] as Game, kind: kind as Kind, sub };
}

export class ImportError extends Error {}

export function importRecordings(dir: string): ImportResult {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort();
  } catch (err) {
    throw new ImportError(`${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const acc = new Acc();
  let catalogFiles = 0;
  for (const name of names) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(join(dir, name), "utf8"));
    } catch {
      throw new ImportError(`${join(dir, name)} is not JSON`);
    }
    if (!isRecording(doc))
      throw new ImportError(`${join(dir, name)} is not a recording (written by npx emulator shadow --record)`);
    const read = catalogRead(doc.path);
    if (!read || doc.status !== 200) continue;
    let data: unknown;
    try {
      data = (JSON.parse(doc.body) as { data?: unknown }).data;
    } catch {
      continue;
    }
    catalogFiles++;
    acc.take(read.game, read.kind, read.sub, data);
  }
  return { overlay: acc.overlay(), files: names.length, catalogFiles, skipped: acc.skipped };
}

type Row = Record<string, unknown>;
const rows = (data: unknown): Row[] =>
  (Array.isArray(data) ? data : [data]).filter((r): r is Row => !!r && typeof r === "object");

class Acc {
  skipped = 0;
  private expansions = new Map<string, CatalogOverlay["expansions"][number]>();
  private cards = new Map<string, CatalogOverlay["cards"][number]>();
  private sealed = new Map<string, CatalogOverlay["sealed"][number]>();

  take(game: Game, kind: Kind, sub: string | undefined, data: unknown): void {
    if (sub === "prices") return this.prices(game, kind, data);
    if (kind === "cards" || sub === "cards") for (const r of rows(data)) this.card(game, r);
    else if (kind === "expansions") for (const r of rows(data)) this.expansion(game, r);
    else for (const r of rows(data)) this.product(game, r);
  }

  private card(game: Game, row: Row): void {
    const { pricing, ...rest } = row;
    const card = CardBase.safeParse(rest);
    if (!card.success) return void this.skipped++;
    const k = `${game}:${card.data.id.toLowerCase()}`;
    const priced = CardPricing.safeParse(pricing);
    const old = this.cards.get(k);
    const keep = priced.success ? priced.data : old?.pricing;
    this.cards.set(k, { game, card: card.data, ...(keep ? { pricing: keep } : {}) });
    this.expansion(game, card.data.expansion as Row, true);
  }

  /** An expansion seen inline on a card is kept only until the expansion's own answer is recorded. */
  private expansion(game: Game, row: Row, inline = false): void {
    const exp = Expansion.safeParse(row);
    if (!exp.success) return void this.skipped++;
    const k = `${game}:${exp.data.id.toLowerCase()}`;
    if (inline && this.expansions.has(k)) return;
    this.expansions.set(k, { game, expansion: exp.data });
  }

  private product(game: Game, row: Row): void {
    const { pricing, ...rest } = row;
    const product = SealedProductBase.safeParse(rest);
    if (!product.success) return void this.skipped++;
    const k = `${game}:${product.data.id.toLowerCase()}`;
    const priced = SealedPricing.safeParse(pricing);
    const keep = priced.success ? priced.data : this.sealed.get(k)?.pricing;
    this.sealed.set(k, { game, product: product.data, ...(keep ? { pricing: keep } : {}) });
  }

  /** The prices routes: the full pricing of a record already seen (a price without its record says too little). */
  private prices(game: Game, kind: string, data: unknown): void {
    const row = rows(data)[0];
    if (!row) return;
    if (kind === "cards") {
      const rec = this.cards.get(`${game}:${String(row.card_id).toLowerCase()}`);
      const priced = CardPricing.safeParse(row.pricing);
      if (rec && priced.success) rec.pricing = priced.data;
    } else if (kind === "sealed") {
      const rec = this.sealed.get(`${game}:${String(row.product_id).toLowerCase()}`);
      const priced = SealedPricing.safeParse(row.pricing);
      if (rec && priced.success) rec.pricing = priced.data;
    }
  }

  overlay(): CatalogOverlay {
    return {
      catalog_overlay: 1,
      expansions: [...this.expansions.values()],
      cards: [...this.cards.values()],
      sealed: [...this.sealed.values()],
    };
  }
}
