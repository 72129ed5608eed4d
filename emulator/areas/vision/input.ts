import { ApiError, badRequest } from "../../pipeline/errors.ts";
import type { CatalogIndex } from "../../catalog-data/catalog-index.ts";
import { FIXTURE_HOST, MAX_IMAGE_BYTES, fixtureBytes, resolveFixture } from "./fixture-host.ts";
import { parseBodyOptions } from "./options.ts";
import type { OptionsInput } from "../../../contract/index.ts";
import { checkImageUrl } from "./url.ts";
import { readBytes, readText } from "../../pipeline/body.ts";

// Reads the identify request into image bytes plus its options. Accepted:
// JSON {image_url, ...options}; multipart/form-data with the file in field
// `image` (options as text fields); or a raw image body (Content-Type image/*).
// The pipeline cannot read multipart or raw bodies as the route's JSON body,
// so the reading is here; the options are checked by their schema
// (schemas.ts) whichever form carried them. 413 image_too_large applies
// however the image arrives.

/** Multipart framing and text fields on top of a 10 MB file. */
const BODY_SLACK = 1024 * 1024;

export interface ImageInput {
  source: "upload" | "url";
  bytes: Uint8Array;
  url: string | null;
}

export interface ParsedRequest {
  /** The body's options, checked (each undefined when the body does not give it). */
  options: OptionsInput;
  /** Resolves the image; called after the options are validated. */
  image(): Promise<ImageInput>;
}

export const tooLarge = (size: number | string) =>
  new ApiError(
    413,
    "image_too_large",
    `The image is ${size} bytes; at most ${MAX_IMAGE_BYTES} bytes (10 MB) are accepted`,
    { details: { max_bytes: MAX_IMAGE_BYTES } },
  );

export async function readRequest(req: Request, catalog: CatalogIndex): Promise<ParsedRequest> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_IMAGE_BYTES + BODY_SLACK) throw tooLarge(`about ${declared}`);
  const type = (req.headers.get("content-type") ?? "").toLowerCase();

  if (type.startsWith("multipart/form-data")) return readMultipart(req, catalog);
  if (type.startsWith("image/") || type === "application/octet-stream") {
    const bytes = await readBytes(req, MAX_IMAGE_BYTES, tooLarge);
    return {
      options: {},
      image: async () => (bytes.length ? { source: "upload", bytes, url: null } : imageRequired()),
    };
  }
  const text = await readText(req, MAX_IMAGE_BYTES + BODY_SLACK, tooLarge);
  let body: unknown = {};
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      throw badRequest(
        "invalid_json",
        'The request body is not valid JSON; send {"image_url": "https://…"} or a multipart upload in field `image`',
      );
    }
  }
  const obj = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return {
    options: parseBodyOptions(obj),
    async image() {
      if (obj.image_url === undefined || obj.image_url === null || obj.image_url === "") {
        if ("image" in obj || "file" in obj)
          throw badRequest(
            "invalid_upload",
            'Upload images as multipart/form-data in the field `image`, or send {"image_url": "https://…"}',
          );
        return imageRequired();
      }
      return fetchUrl(obj.image_url, catalog);
    },
  };
}

async function readMultipart(req: Request, catalog: CatalogIndex): Promise<ParsedRequest> {
  // Counted while streaming like every other body: formData() alone reads a chunked upload whole first.
  const bytes = await readBytes(req, MAX_IMAGE_BYTES + BODY_SLACK, tooLarge);
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw badRequest("invalid_upload", "The multipart body could not be parsed (check the boundary and Content-Type)");
  }
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : v === null ? undefined : v;
  };
  const expansion = form.getAll("expansion_ids").filter((v): v is string => typeof v === "string");
  const options = parseBodyOptions({
    game: text("game"),
    limit: text("limit"),
    include: text("include"),
    expansion_ids: expansion.length > 1 ? expansion : expansion[0],
  });
  const file = form.get("image");
  const files = [...form.entries()].filter(([, v]) => typeof v !== "string");
  return {
    options,
    async image() {
      if (file !== null && typeof file !== "string") {
        if (file.size > MAX_IMAGE_BYTES) throw tooLarge(file.size);
        return { source: "upload", bytes: new Uint8Array(await file.arrayBuffer()), url: null };
      }
      if (file !== null)
        throw badRequest(
          "invalid_upload",
          "The field `image` must be a file part (filename and bytes), not a text value",
        );
      if (files.length > 0)
        throw badRequest(
          "invalid_upload",
          `Upload the image in the multipart field \`image\`; got file field(s) ${files.map(([k]) => `\`${k}\``).join(", ")}`,
        );
      const url = text("image_url");
      if (url !== undefined && url !== "") return fetchUrl(url, catalog);
      return imageRequired();
    },
  };
}

function imageRequired(): never {
  throw badRequest(
    "image_required",
    'Send an image: {"image_url": "https://…"} or a multipart/form-data upload in the field `image` (JPEG, PNG or WebP, at most 10 MB)',
  );
}

/** Only the fixture host is served; the emulator never fetches the internet. */
function fetchUrl(raw: unknown, catalog: CatalogIndex): ImageInput {
  const { url, host } = checkImageUrl(raw);
  // Compared as classified, so "images.emulator.test." (fully qualified) is the same host.
  if (host.host !== FIXTURE_HOST || url.port !== "")
    throw badRequest(
      "image_fetch_failed",
      `Could not fetch ${url.href}: the emulator makes no outbound requests; use an image of the fixture host https://${FIXTURE_HOST}/… or upload the file`,
      {
        details: { url: url.href },
      },
    );
  const img = resolveFixture(catalog, url.pathname);
  if (!img)
    throw badRequest("image_fetch_failed", `Could not fetch ${url.href}: the image host answered 404`, {
      details: { url: url.href, upstream_status: 404 },
    });
  const bytes = fixtureBytes(img);
  if (bytes.length > MAX_IMAGE_BYTES) throw tooLarge(bytes.length);
  return { source: "url", bytes, url: url.href };
}
