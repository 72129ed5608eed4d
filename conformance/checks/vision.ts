import type { Check, CheckContext } from "../types.ts";
import { runs } from "../types.ts";
import { ensure, expectError, expectSuccess, intHeader } from "../assert.ts";

// Checks of vision identify. Read-only ones only provoke refunded 400/404s
// (safe against production); sandbox ones identify the target's own catalog
// images (a card's front, an expansion's logo, read from the catalog) and
// upload the suite's own oversized image, so they run against any target.

const IDENTIFY = "/api/v1/vision/identify";
const CARD = "/api/v1/pokemon/cards/base1-4";

/** The target's own image of base1-4 (its front, large), as the catalog gives it. */
async function cardImage(http: CheckContext["http"], key: string): Promise<string> {
  const d = expectSuccess(await http.get(CARD, { key }), `GET ${CARD}`).data as { images?: Array<{ large?: unknown }> };
  const url = d.images?.[0]?.large;
  ensure(typeof url === "string", `the card must carry images[0].large, got ${JSON.stringify(d.images)}`);
  return url;
}
const USAGE = "/api/v1/account/usage";

export const visionChecks: Check[] = [
  {
    id: "vision.errors-refunded",
    guards: "docs/reference/api-rules.md “Credits and billing” (vision 5 credits; billing rules)",
    profile: "vision",
    title: "A vision error is refunded",
    rule: "Vision identify costs 5 credits; errors are refunded (any 4xx is refunded if a credit was charged up front).",
    ...runs("read-only", ["partnerKey"]),
    deviation: "vision_error_charged",
    async run({ http, partnerKey }) {
      const before = (
        expectSuccess(await http.get(USAGE, { key: partnerKey }), "GET /account/usage").data as { balance: number }
      ).balance;
      const r = await http.post(IDENTIFY, {
        key: partnerKey,
        body: { image_url: "http://images.example.com/card.png" },
      });
      expectError(r, 400, "image_url_not_allowed", "identify with an http URL");
      ensure(
        intHeader(r, "X-Credits-Cost", "refunded identify") === 0,
        "a refunded identify reports X-Credits-Cost: 0",
      );
      ensure(intHeader(r, "X-Credits-Remaining", "refunded identify") === before, `the balance must stay ${before}`);
    },
  },
  {
    id: "vision.image-required",
    guards: "docs/reference/api-rules.md “Error codes” (vision 400 codes)",
    profile: "vision",
    title: "Identify without an image → 400 image_required",
    rule: "image_required: no image (neither image_url nor an upload).",
    ...runs("read-only", ["partnerKey"]),
    deviation: "vision_image_required_wrong_code",
    async run({ http, partnerKey }) {
      expectError(
        await http.post(IDENTIFY, { key: partnerKey, body: {} }),
        400,
        "image_required",
        "identify with an empty body",
      );
    },
  },
  {
    id: "vision.url-not-allowed",
    guards: "docs/reference/api-rules.md “Vision endpoints” and “Error codes” (image_url_not_allowed)",
    profile: "vision",
    title: "Non-public or non-https image_url → 400 image_url_not_allowed",
    rule: "image_url must be a public https URL: http, loopback, private and link-local hosts are image_url_not_allowed.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "vision_allows_http",
    async run({ http, partnerKey }) {
      for (const url of [
        "http://images.example.com/card.png",
        "https://127.0.0.1/card.png",
        "https://169.254.169.254/latest",
        "https://192.168.0.10/card.png",
      ])
        expectError(
          await http.post(IDENTIFY, { key: partnerKey, body: { image_url: url } }),
          400,
          "image_url_not_allowed",
          url,
        );
    },
  },
  {
    id: "vision.invalid-options",
    guards:
      "docs/reference/api-rules.md “Error codes” (vision option codes; invalid_pagination for an id array over 500 entries)",
    profile: "vision",
    title: "Bad identify options → their own 400 codes",
    rule: "Options game, limit, include, expansion_ids are validated: invalid_game, invalid_limit, invalid_include, invalid_expansion_ids; over 500 expansion_ids (an id array) is invalid_pagination.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "vision_lenient_options",
    async run({ http, partnerKey }) {
      const url = "https://images.example.com/card.png";
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ game: "not-a-game" }, "invalid_game"],
        [{ limit: "many" }, "invalid_limit"],
        [{ include: "everything" }, "invalid_include"],
        [{ expansion_ids: 42 }, "invalid_expansion_ids"],
        // An id array past the interface's 500 entries, before any id is looked up.
        [{ expansion_ids: Array.from({ length: 501 }, () => "base1") }, "invalid_pagination"],
      ];
      for (const [opts, code] of cases)
        expectError(
          await http.post(IDENTIFY, { key: partnerKey, body: { image_url: url, ...opts } }),
          400,
          code,
          JSON.stringify(opts).slice(0, 80),
        );
    },
  },
  {
    id: "vision.confirm-unknown",
    guards: "docs/reference/api-rules.md “Error codes” (404 feedback_not_found)",
    profile: "vision",
    title: "Confirming an unknown feedback_id → 404 feedback_not_found",
    rule: "404 feedback_not_found: vision confirm with unknown feedback_id.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "vision_confirm_wrong_code",
    async run({ http, partnerKey }) {
      const r = await http.post(`${IDENTIFY}/conformance-unknown-feedback/confirm`, { key: partnerKey, body: {} });
      expectError(r, 404, "feedback_not_found", "confirm an unknown feedback_id");
    },
  },
  {
    id: "vision.identify-feedback",
    guards: "docs/reference/api-rules.md “Vision endpoints” and “Credits and billing” (identify 5, confirm 0)",
    profile: "vision",
    title: "A fixture card image is identified, with a feedback_id that confirms for free",
    rule: "Identify costs 5 credits and returns a result carrying a feedback_id; confirming a match costs 0.",
    ...runs("sandbox", ["partnerKey"], 6),
    deviation: "vision_no_feedback_id",
    async run({ http, partnerKey, note }) {
      const r = await http.post(IDENTIFY, { key: partnerKey, body: { image_url: await cardImage(http, partnerKey) } });
      const d = expectSuccess(r, "identify a fixture card").data as {
        feedback_id?: unknown;
        matched?: unknown;
        match?: { card_id?: unknown; confidence?: unknown };
      };
      ensure(intHeader(r, "X-Credits-Cost", "identify") === 5, "identify costs 5 credits");
      ensure(typeof d.feedback_id === "string" && d.feedback_id.length > 0, "the result must carry a feedback_id");
      ensure(
        d.matched === true && d.match?.card_id === "base1-4",
        `the fixture image of base1-4 must identify base1-4, got ${JSON.stringify(d.match?.card_id)}`,
      );
      const c = await http.post(`${IDENTIFY}/${d.feedback_id}/confirm`, { key: partnerKey, body: {} });
      expectSuccess(c, "confirm the match");
      ensure(intHeader(c, "X-Credits-Cost", "confirm") === 0, "confirming costs 0");
      note(`confidence ${d.match?.confidence}`);
    },
  },
  {
    id: "vision.no-match-billed",
    guards: "docs/reference/api-rules.md “Vision endpoints” (a no-match still costs one identification)",
    profile: "vision",
    title: "A no-match still costs one identification",
    rule: "A no-match still costs one identification (5 credits).",
    ...runs("sandbox", ["partnerKey"], 6),
    deviation: "vision_no_match_free",
    async run({ http, partnerKey }) {
      const set = expectSuccess(
        await http.get("/api/v1/pokemon/expansions/base1", { key: partnerKey }),
        "GET /pokemon/expansions/base1",
      ).data as { logo?: unknown };
      ensure(typeof set.logo === "string", `the expansion must carry its logo URL, got ${JSON.stringify(set.logo)}`);
      const r = await http.post(IDENTIFY, { key: partnerKey, body: { image_url: set.logo } });
      const d = expectSuccess(r, "identify a set logo").data as { matched?: unknown };
      ensure(d.matched === false, "a set logo is not a card: no match");
      ensure(
        intHeader(r, "X-Credits-Cost", "no-match") === 5,
        `a no-match costs 5, X-Credits-Cost says ${r.headers["x-credits-cost"]}`,
      );
    },
  },
  {
    id: "vision.image-too-large",
    guards: "docs/reference/api-rules.md “Error codes” (413 image_too_large) and “Other limits” (10 MB)",
    profile: "vision",
    title: "An image over 10 MB → 413 image_too_large",
    rule: "413 image_too_large: vision image over 10 MB, however sent.",
    ...runs("sandbox", ["partnerKey"]),
    deviation: "vision_no_size_limit",
    async run({ http, partnerKey }) {
      // The suite's own image: 10 MB and one byte, uploaded (the size is refused before the content is read).
      const form = new FormData();
      form.set("image", new Blob([new Uint8Array(10 * 1024 * 1024 + 1)], { type: "image/png" }), "oversized.png");
      const r = await http.post(IDENTIFY, { key: partnerKey, form });
      expectError(r, 413, "image_too_large", "upload a 10 MB + 1 byte image");
      ensure(intHeader(r, "X-Credits-Cost", "413") === 0, "a 413 is refunded");
    },
  },
];
