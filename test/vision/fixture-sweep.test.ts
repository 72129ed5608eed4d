import { describe, expect, it } from "vitest";
import { newKey, type Api, type Emulator, useEmulator } from "../helpers.ts";
import { IMAGE_HOST } from "../../fixtures/catalog/index.ts";
import type { Game } from "../../emulator/catalog-data/model.ts";
import { fixtureBytes, resolveFixture } from "../../emulator/areas/vision/fixture-host.ts";
import { identify } from "../../emulator/areas/vision/identify.ts";
import { parseOptions } from "../../emulator/areas/vision/options.ts";

// Every card image the fixture host serves must identify as its own card. A
// quarter of them once did not: the marker reader ran on into the tEXt chunk's
// CRC whenever its first byte looked like part of a path. The full sweep calls
// identify in-process (thousands of images); a handful go over HTTP.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

const GAMES: Game[] = ["pokemon", "onepiece", "azuki"];

/** Every image URL the catalog's cards point at (front images and variants), with the card it shows. */
function cardImages(): Array<{ game: Game; id: string; path: string }> {
  const out = new Map<string, { game: Game; id: string; path: string }>();
  for (const game of GAMES)
    for (const rec of emu.services.catalog.cards(game))
      for (const img of [...rec.card.images, ...rec.card.variants.flatMap((v) => v.images)])
        for (const url of [img.small, img.medium, img.large]) {
          if (!url) continue;
          expect(url.startsWith(`${IMAGE_HOST}/`), url).toBe(true);
          out.set(url, { game, id: rec.card.id, path: url.slice(IMAGE_HOST.length + 1) });
        }
  return [...out.values()];
}

describe("every fixture card image identifies as its own card", () => {
  it("in-process, for every card of every game", () => {
    const images = cardImages();
    expect(images.length).toBeGreaterThan(4000); // both sizes of the ~2,100 cards of the default catalog
    const key = emu.services.store.state.keys[emu.key("demo")]!;
    const opts = parseOptions({ limit: 1 }, emu.services.catalog);
    const wrong: string[] = [];
    for (const { game, id, path } of images) {
      // What GET /_emulator/images/<path> serves (control.ts does exactly this).
      const img = resolveFixture(emu.services.catalog, path);
      if (!img || img.kind !== "card") {
        wrong.push(`${path}: not served as a card image`);
        continue;
      }
      const res = identify(emu.services, key, { source: "upload", bytes: fixtureBytes(img), url: null }, opts);
      const want = path.endsWith("/small.png") ? 0.94 : 0.98;
      if (res.match?.card_id !== id || res.match.game !== game || res.match.confidence !== want)
        wrong.push(
          `${path}: got ${res.match ? `${res.match.game}/${res.match.card_id} @${res.match.confidence}` : "no match"}`,
        );
    }
    expect(wrong).toEqual([]);
  });

  // Among them the ids the tester reported.
  const REPORTED: Array<[Game, string]> = [
    ["pokemon", "base1-100"],
    ["pokemon", "base1-75"],
    ["pokemon", "swsh7-12"],
    ["onepiece", "OP01-016"],
    ["azuki", "azk1-001"],
  ];
  const CASES = REPORTED.flatMap(([game, id]) =>
    (["small", "large"] as const).map((size) => [game, id, size] as const),
  );

  it.each(CASES)(
    "over HTTP: %s %s (%s) by image_url, and uploaded after downloading it from /_emulator/images",
    async (game, id, size) => {
      const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"], balance: 100 });
      const path = `${game}/${id}/${size}.png`;
      const byUrl = await api
        .post("/api/v1/vision/identify")
        .set("X-API-Key", key)
        .send({ image_url: `${IMAGE_HOST}/${path}`, limit: 1 })
        .expect(200);
      expect(byUrl.body.data.match).toMatchObject({ card_id: id, game, confidence: size === "large" ? 0.98 : 0.94 });

      const served = await api
        .get(`/_emulator/images/${path}`)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => cb(null, Buffer.concat(chunks)));
        })
        .expect(200);
      const bytes = served.body as Buffer;
      expect(bytes.equals(fixtureBytes(resolveFixture(emu.services.catalog, path)!))).toBe(true);
      const up = await api
        .post("/api/v1/vision/identify")
        .set("X-API-Key", key)
        .attach("image", bytes, "card.png")
        .expect(200);
      expect(up.body.data.match).toMatchObject({ card_id: id, game });
    },
  );
});
