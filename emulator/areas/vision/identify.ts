import { badRequest } from "../../pipeline/errors.ts";
import type { Services } from "../../pipeline/services.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { catalogCardWire } from "../catalog/index.ts";
import type { CardRecord } from "../../catalog-data/model.ts";
import { cardOfMarker } from "./fixture-host.ts";
import type { ImageInput } from "./input.ts";
import type { IdentifyOptions } from "./options.ts";
import type { IdentifyResultWire } from "../../../contract/index.ts";
import { decode, markerOf } from "./png.ts";
import { visionSlice, type FeedbackRecord } from "./state.ts";
import { COUNTERS, hexId } from "../../state/ids.ts";

// Deterministic identification: an image carrying the marker of a fixture card
// image identifies that card (confidence 0.98 from the large image, 0.94 from
// the small one); its other printings and expansion neighbours follow as
// lower-confidence candidates. Anything else is a no-match (still billed).

const TOP_CONFIDENCE = { large: 0.98, small: 0.94 } as const;

export function identify(
  services: Services,
  key: KeyRecord,
  image: ImageInput,
  opts: IdentifyOptions,
): IdentifyResultWire {
  const decoded = decode(image.bytes);
  if (!decoded)
    throw badRequest(
      "invalid_image",
      "The image could not be decoded; send a JPEG, PNG or WebP file (detected by content, not by name or Content-Type)",
      {
        details: { bytes: image.bytes.length },
      },
    );
  const catalog = services.catalog;
  const marker = markerOf(image.bytes);
  const ref = marker ? cardOfMarker(catalog, marker) : null;
  const anchor = ref ? catalog.card(ref.game, ref.id) : undefined;
  const allowed = (r: CardRecord) =>
    (!opts.game || r.game === opts.game) &&
    (!opts.expansion_ids || opts.expansion_ids.includes(r.card.expansion.id.toLowerCase()));

  const ranked: Array<{ rec: CardRecord; confidence: number }> = [];
  if (anchor && allowed(anchor)) {
    ranked.push({ rec: anchor, confidence: marker!.endsWith("/large") ? TOP_CONFIDENCE.large : TOP_CONFIDENCE.small });
    const seen = new Set([anchor.card.id]);
    const printings = catalog.printings(anchor).filter((r) => !seen.has(r.card.id) && allowed(r));
    printings.forEach((r, i) => {
      seen.add(r.card.id);
      ranked.push({ rec: r, confidence: round(Math.max(0.3, 0.62 - 0.04 * i)) });
    });
    const neighbours = catalog
      .expansionCards(anchor.game, anchor.card.expansion.id)
      .filter((r) => !seen.has(r.card.id) && allowed(r));
    const at = neighbours.findIndex((r) => r.card.number >= anchor.card.number);
    const ordered = at < 0 ? neighbours : [...neighbours.slice(at), ...neighbours.slice(0, at)];
    ordered
      .slice(0, opts.limit)
      .forEach((r, i) => ranked.push({ rec: r, confidence: round(Math.max(0.02, 0.18 - 0.02 * i)) }));
  }
  const candidates = ranked.slice(0, opts.limit).map(({ rec, confidence }) => ({
    card_id: rec.card.id,
    game: rec.game,
    confidence,
    card: catalogCardWire(rec, opts.include.prices),
  }));

  const slice = visionSlice(services.store);
  const n = services.store.nextId(COUNTERS.visionFeedback);
  const feedback_id = `vfb_${hexId(`${services.options.seed}:${n}`, 24)}`;
  const record: FeedbackRecord = {
    feedback_id,
    account_id: key.account_id,
    key: key.key,
    created_at: services.clock.nowIso(),
    matched_card_id: candidates[0]?.card_id ?? null,
    game: candidates[0]?.game ?? opts.game,
    candidate_ids: candidates.map((c) => c.card_id),
    confirmed_card_id: null,
    confirmed_at: null,
  };
  slice.feedback[feedback_id] = record;

  return {
    feedback_id,
    matched: candidates.length > 0,
    match: candidates[0] ?? null,
    candidates,
    image: {
      source: image.source,
      url: image.url,
      format: decoded.format,
      bytes: image.bytes.length,
      width: decoded.width,
      height: decoded.height,
    },
    options: {
      game: opts.game,
      limit: opts.limit,
      include: opts.include.prices ? ["prices"] : [],
      expansion_ids: opts.expansion_ids,
    },
  };
}

const round = (x: number) => Math.round(x * 100) / 100;
