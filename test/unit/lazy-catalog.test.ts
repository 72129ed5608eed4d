import { afterAll, describe, expect, it, vi } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import type { BuildCatalogOptions } from "../../fixtures/catalog/index.ts";

// A start builds no catalog (issue 38, docs/benchmarks.md "Start-up"): the seed's catalog is built on its
// first read, so an emulator whose tests never read a card pays no faker run, and the CLI builds it right
// after its ready line. The answers are the ones an eager build gives.

const builds = vi.hoisted(() => [] as BuildCatalogOptions[]);
vi.mock("../../fixtures/catalog/index.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../fixtures/catalog/index.ts")>();
  return {
    ...original,
    buildCatalog: (options: BuildCatalogOptions) => {
      builds.push(options);
      return original.buildCatalog(options);
    },
  };
});

const opened: Emulator[] = [];
afterAll(async () => {
  for (const emu of opened) await emu.close();
});

describe("the catalog is built on its first read", () => {
  it("not by the start; by the first catalog call, once, with the same answer afterwards", async () => {
    const emu = await createEmulator({ seed: 90210, clock: "manual" });
    opened.push(emu);
    // Commerce and control calls do not read the catalog either.
    expect((await emu.fetch("/api/v1/health")).status).toBe(200);
    expect(builds).toEqual([]);

    const headers = { "x-api-key": emu.key("demo") };
    const first = await emu.fetch("/api/v1/pokemon/cards/base1-4", { headers });
    expect(first.status).toBe(200);
    expect(builds).toEqual([{ seed: 90210, size: "default" }]);
    const body = await first.text();
    expect(JSON.parse(body)).toMatchObject({ data: { id: "base1-4", name: "Charizard" } });

    // A second emulator of the seed shares it (no second build) and answers the same bytes.
    const again = await createEmulator({ seed: 90210, clock: "manual" });
    opened.push(again);
    const second = await again.fetch("/api/v1/pokemon/cards/base1-4", { headers: { "x-api-key": again.key("demo") } });
    expect(await second.text()).toBe(body);
    expect(builds).toHaveLength(1);
  });
});
