import { defineControl, type ControlSpec } from "../../control/route.ts";
import { missing } from "../../control/schemas.ts";
import { z } from "../../pipeline/schema.ts";
import { notFound } from "../../pipeline/errors.ts";
import { fixtureBytes, resolveFixture } from "./fixture-host.ts";

// The fixture image host over HTTP: /_emulator/images/<path> serves the same
// bytes identify resolves for https://images.emulator.test/<path>, so users
// can download a card image and upload it.
export const visionControl: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/images/:path{.+}",
    describe:
      "A fixture image (same path as on https://images.emulator.test), e.g. /_emulator/images/pokemon/base1-4/large.png",
    // The answer is the image's bytes (PNG or the fixture's own type), not an envelope.
    schema: {
      params: z.object({ path: z.string() }),
      responses: { 200: { description: "The image bytes" }, 404: missing("fixture image") },
    },
    handle(c) {
      const path = c.input.params.path;
      const img = resolveFixture(c.services.catalog, path);
      if (!img) throw notFound(`No fixture image ${path}`);
      const bytes = fixtureBytes(img);
      const type = img.kind === "raw" ? img.contentType : "image/png";
      return {
        raw: new Response(new Uint8Array(bytes), {
          status: 200,
          headers: {
            "Content-Type": type,
            "Content-Length": String(bytes.length),
            "Cache-Control": "public, max-age=31536000, immutable",
          },
        }),
      };
    },
  }),
];
