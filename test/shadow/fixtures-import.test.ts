import { afterEach, describe, expect, it } from "vitest";
import request from "supertest";
import { expectError } from "../../conformance/assert.ts";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startEmulator } from "../helpers.ts";
import { importRecordings, startShadow, type Shadow } from "../../shadow/index.ts";
import { runFixturesCli } from "../../shadow/fixtures-cli.ts";

// Recorded from an upstream whose catalog differs (seed 7), imported, laid over seed 1: the recorded
// records answer by id and in searches, with the upstream's values, where seed 1 alone has other ones or none.

type Upstream = Awaited<ReturnType<typeof startEmulator>>;
let up: Upstream | null = null;
let shadow: Shadow | null = null;
let emu: Emulator | null = null;
let dir: string | null = null;
afterEach(async () => {
  await shadow?.close();
  await up?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  shadow = up = emu = dir = null;
});

const READS = [
  "/api/v1/pokemon/cards?q=name:Pinsir&include=prices",
  "/api/v1/pokemon/cards/base1-1?include=prices",
  "/api/v1/pokemon/cards/base1-1/prices",
  "/api/v1/pokemon/cards/swsh7-3vrh?select=id,name", // narrowed: not a whole record, left out
  "/api/v1/pokemon/expansions/swsh7",
  "/api/v1/pokemon/sealed?q=name:Hot*&include=prices",
  "/api/v1/pokemon/sealed/base1-theme-deck-hot-water/prices",
];

type Body = { data: Record<string, unknown> & { pricing?: Record<string, unknown> } };
const get = async (e: { url: string }, key: string, path: string) => {
  const res = await request(e.url).get(path).set("X-API-Key", key);
  return { status: res.status, body: res.body as Body };
};

async function recordFromSeed7(): Promise<{ upBodies: Map<string, Body> }> {
  up = await startEmulator({ seed: 7 });
  dir = mkdtempSync(join(tmpdir(), "fixtures-import-"));
  shadow = await startShadow({
    upstream: up.emu.url,
    upstreamKey: up.emu.key("demo"),
    record: join(dir, "rec"),
    emulator: { seed: 1, clock: "manual", chain: false },
  });
  const upBodies = new Map<string, Body>();
  for (const p of READS) {
    const res = await request(shadow.url).get(p);
    expect(res.status).toBe(200);
    upBodies.set(p, res.body as Body);
  }
  await shadow.settled();
  return { upBodies };
}

describe("npx emulator fixtures import", () => {
  it("turns recorded catalog answers into an overlay the emulator serves by id and in searches", async () => {
    const { upBodies } = await recordFromSeed7();
    const result = importRecordings(join(dir!, "rec"));
    expect(result).toMatchObject({ files: READS.length, catalogFiles: READS.length, skipped: 1 });
    const file = join(dir!, "overlay.json");
    writeFileSync(file, JSON.stringify(result.overlay));

    const plain = await createEmulator({ seed: 1, clock: "manual", chain: false, port: 0 });
    const demo = plain.key("demo");
    // Seed 1 alone: Pinsir swsh7-3vrh does not exist, base1-1 has another price.
    expectError(await get(plain, demo, "/api/v1/pokemon/cards/swsh7-3vrh"), 404, "not_found");
    expectError(await get(plain, demo, "/api/v1/pokemon/sealed/base1-theme-deck-hot-water"), 404, "not_found");
    const seed1Alakazam = (await get(plain, demo, "/api/v1/pokemon/cards/base1-1/prices")).body.data;
    await plain.close();

    emu = await createEmulator({
      seed: 1,
      clock: "manual",
      chain: false,
      validateResponses: true,
      catalogOverlay: file,
      port: 0,
    });
    const key = emu.key("demo");
    // Every recorded whole record comes back as the upstream gave it; a search also finds the seed's own.
    for (const p of READS.filter((p) => !p.includes("select="))) {
      const got = await get(emu, key, p);
      expect(got.status, p).toBe(200);
      const want = upBodies.get(p)!.data;
      if (Array.isArray(want)) {
        expect(want.length, p).toBeGreaterThan(0);
        for (const row of want) expect(got.body.data, p).toContainEqual(row);
      } else expect(got.body.data, p).toEqual(want);
    }
    expect((await get(emu, key, "/api/v1/pokemon/cards/base1-1/prices")).body.data).not.toEqual(seed1Alakazam);
    // The added card answers by id and in other searches, under its expansion.
    const pinsir = await get(emu, key, "/api/v1/pokemon/cards/swsh7-3vrh");
    expect(pinsir.status).toBe(200);
    expect(pinsir.body.data.name).toBe("Pinsir");
    const search = await get(emu, key, "/api/v1/pokemon/cards?q=name:pins*&page_size=50");
    expect((search.body.data as unknown as { id: string }[]).map((c) => c.id)).toContain("swsh7-3vrh");
    const inSet = await get(emu, key, "/api/v1/pokemon/expansions/swsh7/cards?q=name:pins*");
    expect((inSet.body.data as unknown as { id: string }[]).map((c) => c.id)).toContain("swsh7-3vrh");
    const hotWater = await get(emu, key, "/api/v1/pokemon/sealed/base1-theme-deck-hot-water?include=prices");
    expect(hotWater.body.data.name).toBe("Base Theme Deck: Hot Water");
    expect(hotWater.body.data.pricing?.market).toBe(875.87);

    // Shadowing with the overlay: the recorded card is compared, not counted unknown to the emulator.
    await shadow!.close();
    shadow = await startShadow({
      upstream: up!.emu.url,
      upstreamKey: up!.emu.key("demo"),
      emulator: { seed: 1, clock: "manual", chain: false, catalogOverlay: file },
    });
    await request(shadow.url).get("/api/v1/pokemon/cards/swsh7-3vrh");
    await shadow.settled();
    expect(shadow.log.report().operations.find((o) => o.id === "cards.get")).toMatchObject({
      calls: 1,
      compared: 1,
      differing: 0,
      unknown_to_emulator: 0,
    });
  });

  it("the CLI writes the overlay file; a file that is not an overlay stops the start with one line", async () => {
    const { upBodies } = await recordFromSeed7();
    const out = join(dir!, "cli-overlay.json");
    expect(runFixturesCli(["import", join(dir!, "rec"), "--out", out])).toBe(0);
    const written = JSON.parse(readFileSync(out, "utf8")) as {
      catalog_overlay: number;
      cards: { card: { id: string } }[];
    };
    expect(written.catalog_overlay).toBe(1);
    expect(written.cards.map((c) => c.card.id).sort()).toEqual(
      [...(upBodies.get(READS[0]!)!.data as unknown as { id: string }[]).map((c) => c.id), "base1-1"].sort(),
    );
    expect(() => runFixturesCli(["import", join(dir!, "nope")])).toThrow(/fixtures import: .*ENOENT/);

    const bad = join(dir!, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({ catalog_overlay: 1, cards: [{ game: "pokemon", card: { id: 1 } }], expansions: [], sealed: [] }),
    );
    await expect(createEmulator({ seed: 1, clock: "manual", chain: false, catalogOverlay: bad })).rejects.toThrow(
      /is not an overlay .*cards\.0\.card/,
    );
    // A negative price would fail where prices become micros (a mystery reveal): it stops the start instead.
    const overlay = JSON.parse(readFileSync(out, "utf8")) as { cards: { pricing?: { market: number | null } }[] };
    overlay.cards.find((c) => c.pricing)!.pricing!.market = -1;
    writeFileSync(bad, JSON.stringify(overlay));
    await expect(createEmulator({ seed: 1, clock: "manual", chain: false, catalogOverlay: bad })).rejects.toThrow(
      /a negative price on pokemon /,
    );
  });
});
