import { afterAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { catalogHeld } from "../../emulator/catalog-data/catalog-cache.ts";

// A start builds no catalog (issue 38, docs/benchmarks.md "Start-up"): the seed's catalog is built on its
// first read, so an emulator whose tests never read a card pays no faker run, and the CLI builds it right
// after its ready line. The answers are the ones an eager build gives. (A seed no other test uses.)

const SEED = 90210;
const opened: Emulator[] = [];
const emulator = async () => {
  const emu = await createEmulator({ seed: SEED, clock: "manual", port: 0 });
  opened.push(emu);
  return emu;
};
afterAll(async () => {
  for (const emu of opened) await emu.close();
});

describe("the catalog is built on its first read", () => {
  it("not by the start or a call that does not read it; by the first catalog call, once", async () => {
    const emu = await emulator();
    expect((await request(emu.url).get("/api/v1/health")).status).toBe(200);
    expect(catalogHeld(SEED, "default")).toBe(false);

    const first = await request(emu.url).get("/api/v1/pokemon/cards/base1-4").set("x-api-key", emu.key("demo"));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ data: { id: "base1-4", name: "Charizard" } });
    expect(catalogHeld(SEED, "default")).toBe(true);

    // A second emulator of the seed shares it and answers the same bytes.
    const again = await emulator();
    const second = await request(again.url).get("/api/v1/pokemon/cards/base1-4").set("x-api-key", again.key("demo"));
    expect(second.text).toBe(first.text);
    expect(again.services.catalog).toBe(emu.services.catalog);
  });
});
