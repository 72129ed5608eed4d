import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { deviations } from "../../testing/deviations/index.ts";

// A search's whole answer is reused for the same query text (emulator/areas/catalog/search.ts):
// it must be exactly what a fresh emulator computes, per game and per page, and a deviation
// applied to one answer must not leak into the reused one.

let emu: Emulator;
let fresh: Emulator;
beforeAll(async () => {
  emu = await createEmulator({ seed: 7, chain: false, plugins: [deviations], port: 0 });
  fresh = await createEmulator({ seed: 7, chain: false, port: 0 });
});
afterAll(async () => {
  await emu.close();
  await fresh.close();
});

const get = async (e: Emulator, path: string) => {
  const res = await request(e.url).get(path).set("x-api-key", e.key("demo"));
  expect(res.status, path).toBe(200);
  return res.text;
};

describe("the reused search answer", () => {
  it("is byte for byte what a fresh emulator answers, for each game and page, asked once or many times", async () => {
    const paths = [
      "/api/v1/pokemon/cards?page_size=20",
      "/api/v1/onepiece/cards?page_size=20",
      "/api/v1/pokemon/cards?page_size=20&page=2",
      "/api/v1/pokemon/cards?q=name:char*&page_size=5",
      "/api/v1/pokemon/sealed?page_size=3",
    ];
    for (const p of paths) {
      const first = await get(emu, p);
      expect(await get(emu, p), p).toBe(first);
      expect(await get(emu, p), p).toBe(await get(fresh, p));
    }
    const [pokemon, onepiece] = [await get(emu, paths[0]!), await get(emu, paths[1]!)];
    expect(pokemon).not.toBe(onepiece);
    const page1 = JSON.parse(pokemon).data.map((c: { id: string }) => c.id);
    const page2 = JSON.parse(await get(emu, paths[2]!)).data.map((c: { id: string }) => c.id);
    expect(page1).toHaveLength(20);
    expect(page2.filter((id: string) => page1.includes(id))).toEqual([]);
  });

  it("is not changed by a deviation applied to an earlier answer", async () => {
    const path = "/api/v1/pokemon/cards?page_size=20";
    const clean = await get(emu, path);
    await request(emu.url).post("/_emulator/deviations").send({ name: "catalog_no_total_count" }).expect(201);
    const deviated = await get(emu, path);
    expect(JSON.parse(deviated).total_count).toBeUndefined();
    await request(emu.url).delete("/_emulator/deviations").expect(200);
    expect(await get(emu, path)).toBe(clean);
    expect(JSON.parse(clean).total_count).toBeGreaterThan(20);
  });
});
