import { badRequest, notFound } from "../../pipeline/errors.ts";
import { GAMES, VISION, type ConfirmResultWire } from "../../../contract/index.ts";
import { ok, serve, type RouteSpec } from "../../pipeline/route.ts";
import type { Game } from "../../catalog-data/model.ts";
import { identify } from "./identify.ts";
import { readRequest } from "./input.ts";
import { resolveOptions } from "./options.ts";
import { visionSlice } from "./state.ts";
import { own } from "../../state/own.ts";

// Vision (contract/vision.ts) is part of Card Data: the catalog's keys and
// scope, metered at 5 credits (refunded on any error by the pipeline).

export const visionRoutes: RouteSpec[] = [
  serve(VISION.identify, {
    gate: "catalog",
    async handle(c) {
      // The body (JSON, multipart or raw bytes) is read here; its options win over the query's.
      const parsed = await readRequest(c.req, c.services.catalog);
      const options = resolveOptions(parsed.options, c.input.query, c.services.catalog);
      const image = await parsed.image();
      return ok(identify(c.services, c.key!, image, options));
    },
  }),
  serve(VISION.confirm, {
    handle(c) {
      const id = c.input.params.feedback_id;
      const record = own(visionSlice(c.services.store).feedback, id);
      if (!record || record.account_id !== c.key!.account_id)
        throw notFound(`No identification with feedback_id "${id}"`, "feedback_not_found");
      const wanted = c.input.body.card_id;
      let cardId = record.matched_card_id;
      let game = record.game;
      if (wanted !== undefined && wanted !== null) {
        const games = (record.game ? [record.game] : GAMES) as readonly Game[];
        const rec = games.map((g) => c.services.catalog.card(g, wanted)).find(Boolean);
        if (!rec)
          throw badRequest(
            "invalid_card_id",
            `No card "${wanted}"${record.game ? ` in ${record.game}` : ""} to confirm`,
          );
        cardId = rec.card.id;
        game = rec.game;
      }
      if (!cardId || !game)
        throw badRequest(
          "invalid_card_id",
          'This identification had no match: send {"card_id"} with the card the image shows',
        );
      record.confirmed_card_id = cardId;
      record.game = game;
      record.confirmed_at = c.services.clock.nowIso();
      const data: ConfirmResultWire = {
        feedback_id: record.feedback_id,
        status: "confirmed",
        card_id: cardId,
        game: game as Game,
        corrected: cardId !== record.matched_card_id,
        confirmed_at: record.confirmed_at,
      };
      return ok(data);
    },
  }),
];
