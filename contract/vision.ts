import { operation } from "./operation.ts";
import { GAMES } from "./games.ts";
import { Card } from "./catalog/shapes.ts";
import { identifier, withCode, z } from "./zod.ts";
import { MAX_ID_ARRAY, withinIdArrayLimit } from "./paging.ts";
import { isoTime } from "./primitives.ts";

// What /api/v1/vision/identify and its confirm take and answer (docs/vision.md). Identify reads its own body (JSON, multipart or
// raw image bytes: input.ts), so its options are one schema used three ways:
// the route's query, the JSON body's fields and the multipart text fields
// (input.ts parses those with it). Checks that need the catalog (an expansion
// id must exist, in the chosen game) and the image rules (URL policy, fetch,
// size, decoding) stay rules.

export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;
export const INCLUDES = ["prices"] as const;

const game = z.enum(GAMES);
const int = z.number().int();
const count = int.nonnegative();

/** Multipart and query fields arrive as strings: an empty one is not given. */
const given = <T>(v: T | "" | null | undefined): T | undefined => (v === "" || v === null ? undefined : v);

const GAME_RULE = `must be one of ${GAMES.join(", ")}`;
const LIMIT_RULE = `must be an integer from 1 to ${MAX_LIMIT} (the number of candidates)`;
const INCLUDE_RULE = `accepts ${INCLUDES.join(", ")} (comma-separated or an array)`;

const gameOption = withCode(
  z
    .string({ error: GAME_RULE })
    .trim()
    .toLowerCase()
    .pipe(z.enum([...GAMES, ""], { error: (iss) => `${GAME_RULE}, got ${JSON.stringify(iss.input)}` }))
    .nullish()
    .transform(given)
    .optional()
    .describe(`Only this game: ${GAMES.join(", ")} (any case)`),
  "invalid_game",
);

const limitOption = withCode(
  z
    .union([z.number(), z.string().trim()], { error: LIMIT_RULE })
    .nullish()
    .transform((v) =>
      typeof v === "string" ? (v === "" ? undefined : /^\d+$/.test(v) ? Number(v) : Number.NaN) : given(v),
    )
    .pipe(z.int({ error: LIMIT_RULE }).min(1, LIMIT_RULE).max(MAX_LIMIT, LIMIT_RULE).optional())
    .describe(`Candidates to return, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  "invalid_limit",
);

const includeOption = withCode(
  z
    .union([z.string(), z.array(z.string())], { error: INCLUDE_RULE })
    .nullish()
    .transform((v) => (typeof v === "string" ? (v === "" ? undefined : v.split(",")) : given(v)))
    .pipe(
      z
        .array(
          z
            .string({ error: INCLUDE_RULE })
            .trim()
            .pipe(z.enum(INCLUDES, { error: INCLUDE_RULE })),
        )
        .optional(),
    )
    .describe("`prices` embeds each candidate card's pricing"),
  "invalid_include",
);

// An empty string is not "not given" here: it names no expansion, which is refused.
const expansionIdsOption = withCode(
  z
    .union([z.string(), z.array(z.string())], {
      error: "must be an array of expansion ids or a comma-separated string",
    })
    .nullish()
    .transform((v) =>
      typeof v === "string"
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : (v ?? undefined),
    )
    // An id array: over 500 entries is invalid_pagination, before any id is looked up (the interface's limit).
    .pipe(withinIdArrayLimit(z.array(z.string())).optional())
    .pipe(
      z
        .array(
          z
            .string({ error: "must be non-empty strings of at most 255 characters" })
            .max(255, "must be non-empty strings of at most 255 characters")
            .regex(/\S/, "must be non-empty strings of at most 255 characters"),
        )
        .min(1, "must name at least one expansion")
        .meta({ maxItems: MAX_ID_ARRAY })
        .optional(),
    )
    .describe("Only cards of these expansions (of `game` when given)"),
  "invalid_expansion_ids",
);

/** The identify options, wherever they are sent (query, JSON body, multipart text fields). */
export const identifyOptionFields = {
  game: gameOption,
  limit: limitOption,
  include: includeOption,
  expansion_ids: expansionIdsOption,
};
export const identifyOptionsSchema = z.object(identifyOptionFields);
/** The options as given (each undefined when not sent); defaults and the catalog rule come after. */
export type OptionsInput = z.output<typeof identifyOptionsSchema>;

const imageUrl = z
  .string()
  .describe(
    "A public https URL of the image (the emulator serves only its fixture host https://images.emulator.test/…)",
  );
const imageFile = z
  .file()
  .mime(["image/jpeg", "image/png", "image/webp", "application/octet-stream"])
  .describe("JPEG, PNG or WebP, at most 10 MB (detected by content)");

/** A candidate: the catalog card as the card routes answer it (`pricing` with include=prices). */
const candidateSchema = z.object({ card_id: z.string(), game, confidence: z.number().min(0).max(1), card: Card });

export const identifyResultSchema = z.object({
  feedback_id: z.string().regex(/^vfb_[0-9a-f]{24}$/),
  matched: z.boolean(),
  match: candidateSchema.nullable(),
  candidates: z.array(candidateSchema),
  image: z.object({
    source: z.enum(["upload", "url"]),
    url: z.string().nullable(),
    format: z.enum(["png", "jpeg", "webp"]),
    bytes: count,
    width: count.nullable(),
    height: count.nullable(),
  }),
  options: z.object({
    game: game.nullable(),
    limit: int.min(1).max(MAX_LIMIT),
    include: z.array(z.enum(INCLUDES)),
    expansion_ids: z.array(z.string()).nullable(),
  }),
});
export type IdentifyResultWire = z.output<typeof identifyResultSchema>;

export const confirmResultSchema = z.object({
  feedback_id: z.string(),
  status: z.literal("confirmed"),
  card_id: z.string(),
  game,
  corrected: z.boolean(),
  confirmed_at: isoTime,
});
export type ConfirmResultWire = z.output<typeof confirmResultSchema>;

const CARD_ID_RULE = "must be a card id string";
export const confirmBody = z.object({
  card_id: withCode(
    z
      .string({ error: CARD_ID_RULE })
      .regex(/\S/, CARD_ID_RULE)
      .nullish()
      .describe("The card the image shows, when it is not the match (required after a no-match)"),
    "invalid_card_id",
  ),
});

const OPTION_CODES = ["invalid_game", "invalid_limit", "invalid_include", "invalid_expansion_ids"] as const;

/** Vision is part of Card Data: the catalog's keys and scope, metered at 5 credits; confirming is free. */
const access = { kinds: ["partner", "legacy"], scopes: ["read:catalog"] } as const;

export const VISION = {
  identify: operation({
    id: "vision.identify",
    method: "POST",
    path: "/vision/identify",
    summary: "Identify a card from an image (upload, raw bytes or a public https URL)",
    access,
    envelope: "partner",
    cost: 5,
    schema: {
      query: identifyOptionsSchema,
      ownBody: {
        "application/json": identifyOptionsSchema.extend({ image_url: imageUrl }),
        "multipart/form-data": identifyOptionsSchema.extend({ image: imageFile, image_url: imageUrl.optional() }),
        "image/*": imageFile,
        "application/octet-stream": imageFile,
      },
      responses: {
        200: {
          description: "Identified, or a no-match (matched false, still billed); feedback_id confirms it later",
          data: identifyResultSchema,
        },
        400: {
          description:
            "No image, an image that is not JPEG/PNG/WebP, the wrong multipart field, a URL that is not public https or cannot be fetched, or a bad option (refunded)",
          codes: [
            "invalid_json",
            "image_required",
            "invalid_image",
            "invalid_upload",
            "image_url_not_allowed",
            "image_fetch_failed",
            ...OPTION_CODES,
            "invalid_pagination",
          ],
        },
        413: { description: "The image is over 10 MB, however sent (refunded)", codes: ["image_too_large"] },
      },
    },
  }),
  confirm: operation({
    id: "vision.confirm",
    method: "POST",
    path: "/vision/identify/:feedback_id/confirm",
    summary: "Confirm or correct an identification (free)",
    access,
    envelope: "partner",
    cost: 0,
    schema: {
      params: z.object({ feedback_id: identifier().describe("The identification's feedback_id") }),
      body: confirmBody,
      responses: {
        200: {
          description: "Confirmed; `corrected` when card_id named another card than the match",
          data: confirmResultSchema,
        },
        400: {
          description:
            "feedback_id is over 255 characters, or card_id is not a card (of the identification's game) or missing after a no-match",
          codes: ["identifier_too_long", "invalid_json", "invalid_card_id"],
        },
        404: { description: "No identification with that feedback_id on this account", codes: ["feedback_not_found"] },
        413: { description: "The body is over 1 MB", codes: ["payload_too_large"] },
      },
    },
  }),
};
