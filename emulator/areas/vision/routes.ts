import { badRequest, notFound } from "../../pipeline/errors.ts";
import type { AccessRule } from "../../pipeline/auth.ts";
import { ok, type RouteSpec } from "../../pipeline/route.ts";
import type { Game } from "../../catalog-data/model.ts";
import { identify } from "./identify.ts";
import { readRequest } from "./input.ts";
import { GAMES, parseOptions } from "./options.ts";
import { visionSlice } from "./state.ts";
import { own } from "../../state/own.ts";

// Vision is part of Card Data: the catalog's keys and scope (read:catalog),
// metered at 5 credits (refunded on any error by the pipeline); confirm is free.

const VISION: AccessRule = { kinds: ["partner", "legacy"], scopes: ["read:catalog"] };

export const visionRoutes: RouteSpec[] = [
  {
    method: "POST",
    path: "/vision/identify",
    access: VISION,
    envelope: "partner",
    cost: 5,
    gate: "catalog",
    async handle(c) {
      const parsed = await readRequest(c.req, c.services.catalog);
      // Query-string options are accepted too (body fields win).
      const q = (name: string) => c.query.get(name) ?? undefined;
      const raw = {
        game: parsed.options.game ?? q("game"),
        limit: parsed.options.limit ?? q("limit"),
        include: parsed.options.include ?? q("include"),
        expansion_ids: parsed.options.expansion_ids ?? q("expansion_ids"),
      };
      const options = parseOptions(raw, c.services.catalog);
      const image = await parsed.image();
      return ok(identify(c.services, c.key!, image, options));
    },
  },
  {
    method: "POST",
    path: "/vision/identify/:feedback_id/confirm",
    access: VISION,
    envelope: "partner",
    cost: 0,
    async handle(c) {
      const id = c.params.feedback_id;
      const record = own(visionSlice(c.services.store).feedback, id);
      if (!record || record.account_id !== c.key!.account_id) throw notFound(`No identification with feedback_id "${id}"`, "feedback_not_found");
      const body = await c.json<unknown>();
      const obj = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      let cardId = record.matched_card_id;
      let game = record.game;
      if (obj.card_id !== undefined && obj.card_id !== null) {
        if (typeof obj.card_id !== "string" || obj.card_id.trim() === "") throw badRequest("invalid_card_id", "card_id must be a card id string");
        const games = (record.game ? [record.game] : GAMES) as Game[];
        const rec = games.map((g) => c.services.catalog.card(g, obj.card_id as string)).find(Boolean);
        if (!rec) throw badRequest("invalid_card_id", `No card "${obj.card_id}"${record.game ? ` in ${record.game}` : ""} to confirm`);
        cardId = rec.card.id;
        game = rec.game;
      }
      if (!cardId) throw badRequest("invalid_card_id", "This identification had no match: send {\"card_id\"} with the card the image shows");
      record.confirmed_card_id = cardId;
      record.game = game;
      record.confirmed_at = c.services.clock.nowIso();
      return ok({
        feedback_id: record.feedback_id,
        status: "confirmed",
        card_id: cardId,
        game,
        corrected: cardId !== record.matched_card_id,
        confirmed_at: record.confirmed_at,
      });
    },
  },
];
