import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, newKey, type Api, type Emulator } from "../helpers.ts";
import { renderPng } from "../../emulator/areas/vision/png.ts";
import { expectError as expectErrorEnvelope } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let key: string;
beforeAll(async () => {
  ({ emu, api, close } = await startEmulator());
});
beforeEach(async () => {
  await emu.reset();
  key = await newKey(api, { kind: "partner", scopes: ["read:catalog"], balance: 500 });
});
afterAll(() => close());

const HOST = "https://images.emulator.test";
const identify = () => api.post("/api/v1/vision/identify").set("X-API-Key", key);
const image = async (path: string) =>
  (
    await api
      .get(`/_emulator/images/${path}`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200)
  ).body as Buffer;

describe("POST /api/v1/vision/identify: matches", () => {
  it("identifies a fixture card from its image_url, with candidates, confidence and a feedback_id; costs 5", async () => {
    const res = await identify()
      .send({ image_url: `${HOST}/pokemon/base1-4/large.png` })
      .expect(200);
    expect(res.headers["x-credits-cost"]).toBe("5");
    expect(res.headers["x-credits-remaining"]).toBe("495");
    const d = res.body.data;
    expect(d.matched).toBe(true);
    expect(d.feedback_id).toMatch(/^vfb_[0-9a-f]{24}$/);
    expect(d.match).toMatchObject({ card_id: "base1-4", game: "pokemon", confidence: 0.98, card: { id: "base1-4" } });
    expect(d.candidates[0]).toEqual(d.match);
    expect(d.candidates.length).toBe(5);
    for (let i = 1; i < d.candidates.length; i++)
      expect(d.candidates[i].confidence).toBeLessThan(d.candidates[i - 1].confidence);
    expect(d.image).toMatchObject({ source: "url", format: "png", width: 126, height: 176 });
  });

  it("is deterministic: the same image gives the same candidates", async () => {
    const a = await identify()
      .send({ image_url: `${HOST}/onepiece/OP01-016/small.png`, limit: 3 })
      .expect(200);
    const b = await identify()
      .send({ image_url: `${HOST}/onepiece/OP01-016/small.png`, limit: 3 })
      .expect(200);
    expect(b.body.data.candidates).toEqual(a.body.data.candidates);
    expect(a.body.data.match.confidence).toBe(0.94);
    expect(a.body.data.candidates).toHaveLength(3);
    expect(b.body.data.feedback_id).not.toBe(a.body.data.feedback_id);
  });

  it("identifies an uploaded image downloaded from /_emulator/images (multipart field `image`)", async () => {
    const png = await image("pokemon/base1-4/small.png");
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    const res = await identify()
      .attach("image", png, { filename: "photo.bin", contentType: "application/octet-stream" })
      .field("include", "prices")
      .expect(200);
    expect(res.body.data.match.card_id).toBe("base1-4");
    expect(res.body.data.image).toMatchObject({ source: "upload", format: "png" });
    expect(res.body.data.match.card).toHaveProperty("pricing");
  });

  it("accepts a raw image body (Content-Type image/png) and query options", async () => {
    const png = await image("pokemon/base1-4/large.png");
    const res = await api
      .post("/api/v1/vision/identify?limit=1")
      .set("X-API-Key", key)
      .set("Content-Type", "image/png")
      .send(png)
      .expect(200);
    expect(res.body.data.candidates).toHaveLength(1);
  });

  it("game and expansion_ids filter: a card outside them is a no-match", async () => {
    const url = `${HOST}/pokemon/base1-4/large.png`;
    const other = await identify().send({ image_url: url, game: "onepiece" }).expect(200);
    expect(other.body.data.matched).toBe(false);
    const within = await identify()
      .send({ image_url: url, expansion_ids: ["base1"] })
      .expect(200);
    expect(
      within.body.data.candidates.every(
        (c: { card: { expansion: { id: string } } }) => c.card.expansion.id === "base1",
      ),
    ).toBe(true);
    const outside = await identify().send({ image_url: url, expansion_ids: "sv3pt5" }).expect(200);
    expect(outside.body.data.matched).toBe(false);
  });

  it("a valid image that is not a card is a no-match that still costs 5", async () => {
    const blank = renderPng({ width: 10, height: 10, path: "someone/else" });
    const res = await identify().attach("image", blank, "blank.png").expect(200);
    expect(res.body.data).toMatchObject({ matched: false, match: null, candidates: [] });
    expect(res.body.data.feedback_id).toBeTruthy();
    expect(res.headers["x-credits-cost"]).toBe("5");
    const sealed = await identify()
      .send({ image_url: `${HOST}/pokemon/sealed/sv3pt5-elite-trainer-box/large.png` })
      .expect(200);
    expect(sealed.body.data.matched).toBe(false);
    expect(sealed.headers["x-credits-remaining"]).toBe("490");
  });

  it("accepts JPEG and WebP by content", async () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from("JFIF cardos-emulator:pokemon/base1-4/large\0"),
      Buffer.from([0xff, 0xd9]),
    ]);
    const j = await identify().attach("image", jpeg, "a.jpg").expect(200);
    expect(j.body.data).toMatchObject({ matched: true, image: { format: "jpeg" } });
    const vp8 = Buffer.from("VP8 ....");
    const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.from([vp8.length + 4, 0, 0, 0]), Buffer.from("WEBP"), vp8]);
    const w = await identify().attach("image", webp, "a.webp").expect(200);
    expect(w.body.data).toMatchObject({ matched: false, image: { format: "webp" } });
  });
});

describe("errors (each refunded: X-Credits-Cost 0, balance unchanged)", () => {
  // The shared envelope assertion, plus this area's refund rule.
  async function expectRefundedError(
    req: Promise<import("supertest").Response> | import("supertest").Test,
    status: number,
    code: string,
  ) {
    const res = await req;
    expectErrorEnvelope(res, status, code);
    expect(res.headers["x-credits-cost"]).toBe("0");
    expect(res.headers["x-credits-remaining"]).toBe("500");
    return res;
  }

  it("no image → image_required", async () => {
    await expectRefundedError(identify(), 400, "image_required");
    await expectRefundedError(identify().send({ game: "pokemon" }), 400, "image_required");
    await expectRefundedError(identify().field("game", "pokemon"), 400, "image_required");
  });

  it("a file in the wrong multipart field, or an image in JSON → invalid_upload", async () => {
    await expectRefundedError(identify().attach("file", Buffer.from("x"), "a.png"), 400, "invalid_upload");
    await expectRefundedError(identify().field("image", "not a file"), 400, "invalid_upload");
    await expectRefundedError(identify().send({ image: "iVBORw0KGgo=" }), 400, "invalid_upload");
  });

  it("undecodable bytes → invalid_image (unknown format, or truncated)", async () => {
    await expectRefundedError(identify().attach("image", Buffer.from("GIF89a......"), "a.gif"), 400, "invalid_image");
    const png = await image("pokemon/base1-4/large.png");
    await expectRefundedError(identify().attach("image", png.subarray(0, 60), "a.png"), 400, "invalid_image");
    await expectRefundedError(
      identify().attach("image", Buffer.from([0xff, 0xd8, 0xff, 0, 0]), "a.jpg"),
      400,
      "invalid_image",
    );
    await expectRefundedError(
      identify().send({ image_url: `${HOST}/_fixtures/not-an-image.png` }),
      400,
      "invalid_image",
    );
    await expectRefundedError(identify().send({ image_url: `${HOST}/_fixtures/truncated.png` }), 400, "invalid_image");
  });

  it("over 10 MB → 413 image_too_large, however sent", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 1);
    await expectRefundedError(identify().attach("image", big, "big.png"), 413, "image_too_large");
    await expectRefundedError(
      api.post("/api/v1/vision/identify").set("X-API-Key", key).set("Content-Type", "image/png").send(big),
      413,
      "image_too_large",
    );
    await expectRefundedError(
      identify().send({ image_url: `${HOST}/_fixtures/oversized.png` }),
      413,
      "image_too_large",
    );
    const declared = await api
      .post("/api/v1/vision/identify")
      .set({ "X-API-Key": key, "Content-Type": "application/json", "Content-Length": String(50 * 1024 * 1024) })
      .send("{}");
    expectErrorEnvelope(declared, 413, "image_too_large");
  });

  it.each([
    "http://images.emulator.test/pokemon/base1-4/large.png",
    "https://localhost/a.png",
    "https://127.0.0.1/a.png",
    "https://2130706433/a.png",
    "https://[::1]/a.png",
    "https://10.0.0.8/a.png",
    "https://172.20.1.1/a.png",
    "https://192.168.1.10/a.png",
    "https://169.254.169.254/latest/meta-data",
    "https://[fe80::1]/a.png",
    "https://[fd00::1]/a.png",
    "ftp://example.com/a.png",
    "not a url",
    // Reported: IPv4-mapped IPv6 and a fully qualified localhost were once image_fetch_failed.
    "https://[::ffff:127.0.0.1]/a.png",
    "https://[::ffff:10.0.0.1]/a.png",
    "https://localhost./",
    // The same class: other spellings of inward hosts (one classifier: pipeline/address-policy.ts).
    "https://LOCALHOST./a.png",
    "https://api.localhost./a.png",
    "https://0x7f000001/a.png",
    "https://0177.0.0.1/a.png",
    "https://127.1/a.png",
    "https://[::ffff:7f00:1]/a.png",
    "https://[::ffff:a9fe:a9fe]/latest/meta-data",
    "https://[::127.0.0.1]/a.png",
    "https://[64:ff9b::10.0.0.1]/a.png",
    "https://[2002:7f00:1::]/a.png",
    "https://[::]/a.png",
    "https://0.0.0.0/a.png",
    "https://224.0.0.1/a.png",
    "https://intranet/a.png",
    "https://printer.local./a.png",
  ])("image_url %s → image_url_not_allowed", async (url) => {
    await expectRefundedError(identify().send({ image_url: url }), 400, "image_url_not_allowed");
  });

  it("unfetchable image_url → image_fetch_failed (unknown fixture image; any other host: no outbound requests)", async () => {
    await expectRefundedError(
      identify().send({ image_url: `${HOST}/pokemon/nope-999/large.png` }),
      400,
      "image_fetch_failed",
    );
    await expectRefundedError(
      identify().send({ image_url: "https://example.com/card.png" }),
      400,
      "image_fetch_failed",
    );
    await expectRefundedError(
      identify().send({ image_url: "https://[::ffff:8.8.8.8]/card.png" }),
      400,
      "image_fetch_failed",
    );
    // A malformed %-escape in the path is a 404 on the image host, not a 500.
    const bad = await expectRefundedError(
      identify().send({ image_url: `${HOST}/pokemon/%E0%A4%A/large.png` }),
      400,
      "image_fetch_failed",
    );
    expect(bad.body.details).toMatchObject({ upstream_status: 404 });
    await expectRefundedError(
      identify().send({ image_url: "https://images.emulator.test:8443/pokemon/base1-4/large.png" }),
      400,
      "image_fetch_failed",
    );
  });

  it("the fixture host written fully qualified (trailing dot) or in upper case is the same host", async () => {
    for (const host of ["https://images.emulator.test.", "https://IMAGES.Emulator.TEST"]) {
      const res = await identify()
        .send({ image_url: `${host}/pokemon/base1-4/large.png` })
        .expect(200);
      expect(res.body.data.match.card_id).toBe("base1-4");
    }
  });

  it("options are validated with their codes", async () => {
    const url = `${HOST}/pokemon/base1-4/large.png`;
    await expectRefundedError(identify().send({ image_url: url, game: "magic" }), 400, "invalid_game");
    for (const limit of [0, 21, "abc", 2.5, -1])
      await expectRefundedError(identify().send({ image_url: url, limit }), 400, "invalid_limit");
    await expectRefundedError(identify().send({ image_url: url, include: "prices,history" }), 400, "invalid_include");
    await expectRefundedError(identify().send({ image_url: url, include: 7 }), 400, "invalid_include");
    await expectRefundedError(identify().send({ image_url: url, expansion_ids: [] }), 400, "invalid_expansion_ids");
    await expectRefundedError(identify().send({ image_url: url, expansion_ids: [1] }), 400, "invalid_expansion_ids");
    await expectRefundedError(
      identify().send({ image_url: url, expansion_ids: ["no-such-set"] }),
      400,
      "invalid_expansion_ids",
    );
    await expectRefundedError(
      identify().send({ image_url: url, game: "onepiece", expansion_ids: ["base1"] }),
      400,
      "invalid_expansion_ids",
    );
    await expectRefundedError(
      identify().field("limit", "50").attach("image", Buffer.from("x"), "a.png"),
      400,
      "invalid_limit",
    );
  });

  it("expansion_ids takes up to 500 ids (the interface's id-array limit); past it 400 invalid_pagination, before any id is looked up", async () => {
    const url = `${HOST}/pokemon/base1-4/large.png`;
    for (const ids of [
      Array.from({ length: 501 }, () => "base1"),
      Array.from({ length: 501 }, (_, i) => `no-set-${i}`),
    ])
      await expectRefundedError(identify().send({ image_url: url, expansion_ids: ids }), 400, "invalid_pagination");
    const q = Array.from({ length: 501 }, () => "base1").join(",");
    await expectRefundedError(
      api.post(`/api/v1/vision/identify?expansion_ids=${q}`).set("X-API-Key", key).send({ image_url: url }),
      400,
      "invalid_pagination",
    );
    const ok = await identify()
      .send({ image_url: url, expansion_ids: Array.from({ length: 500 }, () => "base1") })
      .expect(200);
    expect(ok.body.data.match.card_id).toBe("base1-4");
  });

  it("query options are checked by the same schema as body options (named, with their codes); body options win", async () => {
    const url = `${HOST}/pokemon/base1-4/large.png`;
    const q = (query: string) => api.post(`/api/v1/vision/identify?${query}`).set("X-API-Key", key);
    const limit = await expectRefundedError(q("limit=abc").send({ image_url: url }), 400, "invalid_limit");
    expect(limit.body.details).toEqual({ field: "limit", part: "query" });
    await expectRefundedError(q("game=magic").send({ image_url: url }), 400, "invalid_game");
    await expectRefundedError(q("include=history").send({ image_url: url }), 400, "invalid_include");
    await expectRefundedError(q("expansion_ids=").send({ image_url: url }), 400, "invalid_expansion_ids");
    await expectRefundedError(q("expansion_ids=no-such-set").send({ image_url: url }), 400, "invalid_expansion_ids");
    const won = await q("limit=1&include=prices").send({ image_url: url, limit: 3 }).expect(200);
    expect(won.body.data.candidates).toHaveLength(3);
    expect(won.body.data.options).toEqual({ game: null, limit: 3, include: ["prices"], expansion_ids: null });
    expect(won.body.data.match.card).toHaveProperty("pricing");
    const cased = await q("game=%20Pokemon%20&limit=").send({ image_url: url }).expect(200);
    expect(cased.body.data.options).toMatchObject({ game: "pokemon", limit: 5 });
  });

  it("body option errors name the field, in JSON and multipart alike", async () => {
    const json = await expectRefundedError(
      identify().send({ image_url: `${HOST}/pokemon/base1-4/large.png`, expansion_ids: ["base1", 7] }),
      400,
      "invalid_expansion_ids",
    );
    expect(json.body.details).toEqual({ field: "expansion_ids", part: "body" });
    expect(json.body.message).toBe("expansion_ids: must be an array of expansion ids or a comma-separated string");
    const form = await expectRefundedError(
      identify().field("include", "prices,").attach("image", Buffer.from("x"), "a.png"),
      400,
      "invalid_include",
    );
    expect(form.body.details).toEqual({ field: "include.1", part: "body" });
    const nulls = await identify()
      .send({
        image_url: `${HOST}/pokemon/base1-4/large.png`,
        game: null,
        limit: null,
        include: null,
        expansion_ids: null,
      })
      .expect(200);
    expect(nulls.body.data.options).toEqual({ game: null, limit: 5, include: [], expansion_ids: null });
  });

  it("an empty balance → 402 insufficient_credits before anything else", async () => {
    const poor = await newKey(api, { kind: "partner", scopes: ["read:catalog"], balance: 4 });
    const res = await api
      .post("/api/v1/vision/identify")
      .set("X-API-Key", poor)
      .send({ image_url: `${HOST}/pokemon/base1-4/large.png` })
      .expect(402);
    expect(res.body.error).toBe("insufficient_credits");
  });

  it("needs read:catalog (tenant keys 403); legacy keys are unmetered", async () => {
    expectErrorEnvelope(
      await api.post("/api/v1/vision/identify").set("X-API-Key", emu.key("tenant")).send({}),
      403,
      "Insufficient permissions",
    );
    const res = await api
      .post("/api/v1/vision/identify")
      .set("X-API-Key", emu.key("legacy"))
      .send({ image_url: `${HOST}/azuki/azk1-001/large.png` })
      .expect(200);
    expect(res.headers["x-credits-metering"]).toBe("unmetered");
  });
});

describe("POST /api/v1/vision/identify/{feedback_id}/confirm", () => {
  it("confirms the match for free; a correction names another card", async () => {
    const { body } = await identify()
      .send({ image_url: `${HOST}/pokemon/base1-4/large.png` })
      .expect(200);
    const id = body.data.feedback_id;
    const res = await api.post(`/api/v1/vision/identify/${id}/confirm`).set("X-API-Key", key).expect(200);
    expect(res.headers["x-credits-cost"]).toBe("0");
    expect(res.body.data).toMatchObject({ feedback_id: id, status: "confirmed", card_id: "base1-4", corrected: false });
    const fix = await api
      .post(`/api/v1/vision/identify/${id}/confirm`)
      .set("X-API-Key", key)
      .send({ card_id: "base1-2" })
      .expect(200);
    expect(fix.body.data).toMatchObject({ card_id: "base1-2", corrected: true });
    expectErrorEnvelope(
      await api.post(`/api/v1/vision/identify/${id}/confirm`).set("X-API-Key", key).send({ card_id: "nope" }),
      400,
      "invalid_card_id",
    );
  });

  it("a no-match needs a card_id", async () => {
    const { body } = await identify()
      .attach("image", renderPng({ width: 4, height: 4, path: "x" }), "x.png")
      .expect(200);
    const r = await api
      .post(`/api/v1/vision/identify/${body.data.feedback_id}/confirm`)
      .set("X-API-Key", key)
      .expect(400);
    expect(r.body.error).toBe("invalid_card_id");
    await api
      .post(`/api/v1/vision/identify/${body.data.feedback_id}/confirm`)
      .set("X-API-Key", key)
      .send({ card_id: "base1-4" })
      .expect(200);
  });

  it("the body is checked by its schema: card_id a non-blank string (null = the match), the body an object", async () => {
    const { body } = await identify()
      .send({ image_url: `${HOST}/pokemon/base1-4/large.png` })
      .expect(200);
    const confirm = () => api.post(`/api/v1/vision/identify/${body.data.feedback_id}/confirm`).set("X-API-Key", key);
    for (const card_id of [7, "", "   ", ["base1-4"]]) {
      const r = await confirm().send({ card_id });
      expectErrorEnvelope(r, 400, "invalid_card_id", JSON.stringify(card_id));
      expect(r.body.details).toEqual({ field: "card_id", part: "body" });
    }
    expectErrorEnvelope(await confirm().set("Content-Type", "application/json").send("[1]"), 400, "invalid_json");
    const ok = await confirm().send({ card_id: null }).expect(200);
    expect(ok.body.data).toMatchObject({ card_id: "base1-4", game: "pokemon", corrected: false });
  });

  it("an unknown feedback_id, or another account's → 404 feedback_not_found", async () => {
    const r = await api
      .post("/api/v1/vision/identify/vfb_000000000000000000000000/confirm")
      .set("X-API-Key", key)
      .expect(404);
    expect(r.body.error).toBe("feedback_not_found");
    const { body } = await identify()
      .send({ image_url: `${HOST}/pokemon/base1-4/large.png` })
      .expect(200);
    const other = await api
      .post(`/api/v1/vision/identify/${body.data.feedback_id}/confirm`)
      .set("X-API-Key", emu.key("revenue-share"))
      .expect(404);
    expect(other.body.error).toBe("feedback_not_found");
  });
});

describe("the OpenAPI document (from the route schemas)", () => {
  it("documents identify's query options, its three body forms and codes, and confirm's body", async () => {
    const doc = (await api.get("/_emulator/openapi.json").expect(200)).body;
    const op = doc.paths["/api/v1/vision/identify"].post;
    expect(op.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      "query:game",
      "query:limit",
      "query:include",
      "query:expansion_ids",
    ]);
    expect(Object.keys(op.requestBody.content)).toEqual([
      "application/json",
      "multipart/form-data",
      "image/*",
      "application/octet-stream",
    ]);
    expect(op.requestBody.content["application/json"].schema.required).toEqual(["image_url"]);
    expect(op.requestBody.content["multipart/form-data"].schema.properties.image).toMatchObject({
      type: "string",
      format: "binary",
    });
    expect(op.responses["400"].content["application/json"].schema.allOf[1].properties.error.enum).toEqual(
      expect.arrayContaining([
        "image_required",
        "invalid_upload",
        "invalid_game",
        "invalid_limit",
        "invalid_include",
        "invalid_expansion_ids",
      ]),
    );
    expect(op.responses["413"].content["application/json"].schema.allOf[1].properties.error.enum).toEqual([
      "image_too_large",
    ]);
    expect(
      Object.keys(op.responses["200"].content["application/json"].schema.allOf[1].properties.data.properties),
    ).toEqual(["feedback_id", "matched", "match", "candidates", "image", "options"]);
    const confirm = doc.paths["/api/v1/vision/identify/{feedback_id}/confirm"].post;
    expect(Object.keys(confirm.requestBody.content["application/json"].schema.properties)).toEqual(["card_id"]);
    expect(confirm.responses["404"].content["application/json"].schema.allOf[1].properties.error.enum).toEqual([
      "feedback_not_found",
    ]);
  });
});

describe("the fixture image host over HTTP", () => {
  it("serves card, sealed and set images as PNG; unknown paths 404", async () => {
    const res = await api.get("/_emulator/images/pokemon/base1-4/large.png").expect(200);
    expect(res.headers["content-type"]).toBe("image/png");
    await api.get("/_emulator/images/pokemon/sets/base1/logo.png").expect(200);
    expectErrorEnvelope(await api.get("/_emulator/images/pokemon/nope/large.png"), 404, "not_found");
    const malformed = await api.get("/_emulator/images/pokemon/%E0%A4%A/large.png").expect(404);
    expect(malformed.body.error).toBe("not_found");
    const a = await image("pokemon/base1-4/large.png");
    const b = await image("pokemon/base1-4/large.png");
    expect(a.equals(b)).toBe(true);
  });
});
