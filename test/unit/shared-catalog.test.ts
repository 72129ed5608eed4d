import { afterAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";

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
