import { afterEach, beforeEach, describe, expect, it } from "vitest";
import request from "supertest";
import { startEmulator } from "../helpers.ts";
import { startShadow, ShadowOptionsError, type Shadow } from "../../shadow/index.ts";
import { runShadowCli } from "../../shadow/cli.ts";
import { deviations } from "../../testing/deviations/index.ts";

// --mirror-writes: a write goes to the upstream (a second emulator, write deviations switched on) and to
// the shadow's emulator with the named key, and the two answers are compared: exactly the switched-on
// deviations show, and the emulator really made the write.

type Upstream = Awaited<ReturnType<typeof startEmulator>>;
let up: Upstream;
let shadow: Shadow | null = null;
beforeEach(async () => {
  up = await startEmulator({ plugins: [deviations] });
});
afterEach(async () => {
  await shadow?.close();
  shadow = null;
  await up.close();
});

const GOOD = { url: "https://example.com/hook", event_types: ["purchase.fulfilled"] };
const BAD = { url: "https://example.com/hook2", event_types: ["no.such.event"] };

async function writes(s: Shadow): Promise<void> {
  const via = request(s.url);
  await via.post("/api/v1/webhooks").send(GOOD);
  await via.post("/api/v1/webhooks").send(BAD);
  await via.post("/api/v1/credits/topup?usd=1");
  await via.post("/api/v1/vision/identify").send({});
  await s.settled();
}

const found = (s: Shadow) =>
  s.log
    .report()
    .operations.flatMap((o) => o.differences.map((d) => `${o.id} ${d.kind} ${d.where} ${d.upstream}≠${d.emulator}`))
    .sort();

const start = () =>
  startShadow({
    upstream: up.emu.url,
    upstreamKey: up.emu.key("demo"),
    emulatorKey: "demo",
    mirrorWrites: true,
    emulator: { seed: 1, clock: "manual", chain: false, port: 0 },
  });

describe("shadow --mirror-writes", () => {
  it("sends writes to the emulator too and finds no difference against a clean upstream", async () => {
    shadow = await start();
    await writes(shadow);
    expect(found(shadow)).toEqual([]);
    const report = shadow.log.report();
    expect(report.operations.find((o) => o.id === "webhooks.register")).toMatchObject({
      calls: 2,
      compared: 2,
      differing: 0,
    });
    // The emulator made the write, under the named key: the good registration is listed there.
    const listed = await request(shadow.emulator.url)
      .get("/api/v1/webhooks")
      .set("X-API-Key", shadow.emulator.key("demo"));
    const urls = (listed.body as { data: { webhooks: { url: string }[] } }).data.webhooks.map((w) => w.url);
    expect(urls).toEqual([GOOD.url]);
  });

  it("reports exactly the write deviations switched on upstream: statuses and error codes", async () => {
    for (const name of ["lenient_event_types", "topup_amount_unchecked", "vision_image_required_wrong_code"])
      await up.api.post("/_emulator/deviations").send({ name }).expect(201);
    shadow = await start();
    await writes(shadow);
    expect(found(shadow)).toEqual([
      "credits.topup status status 402≠400",
      "vision.identify error_code code invalid_upload≠image_required",
      "webhooks.register status status 201≠400",
    ]);
    const reg = shadow.log.report().operations.find((o) => o.id === "webhooks.register")!;
    expect(reg).toMatchObject({ calls: 2, compared: 2, differing: 1 });
    expect(reg.differences[0]!.sample).toMatchObject({
      request: "POST /api/v1/webhooks",
      upstream_status: 201,
      emulator_status: 400,
    });
  });

  it("without --mirror-writes the emulator never sees a write; with it a key must be named", async () => {
    shadow = await startShadow({
      upstream: up.emu.url,
      upstreamKey: up.emu.key("demo"),
      emulator: { seed: 1, clock: "manual", chain: false, port: 0 },
    });
    await writes(shadow);
    const listed = await request(shadow.emulator.url)
      .get("/api/v1/webhooks")
      .set("X-API-Key", shadow.emulator.key("demo"));
    expect((listed.body as { data: { webhooks: unknown[] } }).data.webhooks).toEqual([]);
    await expect(startShadow({ upstream: up.emu.url, upstreamKey: "k", mirrorWrites: true })).rejects.toThrow(
      ShadowOptionsError,
    );
    await expect(runShadowCli(["--upstream", up.emu.url, "--upstream-key", "k", "--mirror-writes"])).rejects.toThrow(
      /--mirror-writes needs --emulator-key/,
    );
  });
});
