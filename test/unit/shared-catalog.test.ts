import { afterAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { catalogHeld } from "../../emulator/catalog-data/catalog-cache.ts";

// Emulators of one process share the seed's catalog and its index (immutable; issue 38 goal 2,
// emulator/catalog-data/catalog-cache.ts) and nothing else: a write in one never reaches another,
// and each still starts from the seed state a fresh one has.

const opened: Emulator[] = [];
const emulator = async (seed: number) => {
  const emu = await createEmulator({ seed, clock: "manual", port: 0 });
  opened.push(emu);
  return emu;
};
afterAll(async () => {
  for (const emu of opened) await emu.close();
});

describe("emulators of one seed", () => {
  it("share the catalog, not the state", async () => {
    const a = await emulator(7);
    const seedState = JSON.stringify(a.exportState());
    const b = await emulator(7);
    expect(b.services.catalog).toBe(a.services.catalog);
    expect((await emulator(8)).services.catalog).not.toBe(a.services.catalog);

    // A metered read writes a's state (its key's credits); b and a later emulator do not see it.
    const card = await request(a.url).get("/api/v1/pokemon/cards/base1-4").set("x-api-key", a.key("demo"));
    expect(card.status).toBe(200);
    const body = card.text;
    expect(JSON.stringify(a.exportState())).not.toBe(seedState);
    expect(JSON.stringify(b.exportState())).toBe(seedState);
    const c = await emulator(7);
    expect(JSON.stringify(c.exportState())).toBe(seedState);

    // The same card, byte for byte, from the shared catalog.
    const again = await request(b.url).get("/api/v1/pokemon/cards/base1-4").set("x-api-key", b.key("demo"));
    expect(again.text).toBe(body);
  });
});

// A start builds no catalog (issue 38, docs/decisions.md "The seed's catalog on first read"): an emulator whose
// tests never read a card pays for no catalog, and the CLI reads it right after its ready line.
describe("the catalog is built on its first read", () => {
  it("not by the start or a call that does not read it; by the first catalog call, once", async () => {
    const SEED = 90210; // a seed no other test uses
    const emu = await emulator(SEED);
    expect((await request(emu.url).get("/api/v1/health")).status).toBe(200);
    expect(catalogHeld(SEED, "default")).toBe(false);

    const first = await request(emu.url).get("/api/v1/pokemon/cards/base1-4").set("x-api-key", emu.key("demo"));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ data: { id: "base1-4", name: "Charizard" } });
    expect(catalogHeld(SEED, "default")).toBe(true);

    // A second emulator of the seed shares it and answers the same bytes.
    const again = await emulator(SEED);
    const second = await request(again.url).get("/api/v1/pokemon/cards/base1-4").set("x-api-key", again.key("demo"));
    expect(second.text).toBe(first.text);
    expect(again.services.catalog).toBe(emu.services.catalog);
  });
});
