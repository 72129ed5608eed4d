import { afterEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator, type EmulatorPlugin } from "../../emulator/index.ts";
import { ok } from "../../emulator/pipeline/route.ts";
import { defineControl } from "../../emulator/control/route.ts";
import { z } from "../../emulator/pipeline/schema.ts";
import { deviations } from "../../testing/deviations/index.ts";

// The runtime's one extension point (emulator/pipeline/hooks.ts): plugins attached at start. Without
// one the emulator runs its own rules only and has no deviation routes; the deviation catalogue is
// such a plugin (testing/deviations/), never part of the runtime.

let emu: Emulator | null = null;
afterEach(async () => {
  await emu?.close();
  emu = null;
});

type Envelope = { success: boolean; data?: Record<string, unknown>; error?: string };
const json = async (res: Response) => (await res.json()) as Envelope;
const CARD = "/api/v1/pokemon/cards/base1-4";
const JSON_TYPE = { "content-type": "application/json" };
const post = (body: unknown) => ({ method: "POST", headers: JSON_TYPE, body: JSON.stringify(body) });

describe("emulator plugins", () => {
  it("without a plugin, there is no deviation route and answers are the emulator's own", async () => {
    emu = await createEmulator({ seed: 1, clock: "manual", chain: false });
    const res = await emu.fetch("/_emulator/deviations", post({ name: "schema_required_missing" }));
    expect(res.status).toBe(404);
    expect((await json(res)).error).toBe("not_found");
    const index = (await json(await emu.fetch("/_emulator"))).data!.routes as { path: string }[];
    expect(index.filter((r) => r.path.includes("deviation"))).toEqual([]);
  });

  it("a plugin rewrites answers while it says so, adds listed control routes, resets with the emulator", async () => {
    let on = false;
    let resets = 0;
    const plugin: EmulatorPlugin = () => ({
      rewriting: () => on,
      answer: (x) => {
        if (x.body && typeof x.body.data === "object") (x.body.data as Record<string, unknown>).name = "rewritten";
      },
      reset: () => {
        on = false;
        resets++;
      },
      control: [
        defineControl({
          method: "POST",
          path: "/test-switch",
          describe: "Test plugin: turn rewriting on",
          schema: { responses: { 200: { description: "On", data: z.object({ on: z.boolean() }) } } },
          handle: () => ok({ on: (on = true) }),
        }),
      ],
    });
    emu = await createEmulator({ seed: 1, clock: "manual", chain: false, plugins: [plugin] });
    const key = { "X-API-Key": emu.key("demo") };
    const before = (await json(await emu.fetch(CARD, { headers: key }))).data!.name;
    expect(before).not.toBe("rewritten");
    expect((await json(await emu.fetch("/_emulator/test-switch", post({})))).data).toEqual({ on: true });
    expect((await json(await emu.fetch(CARD, { headers: key }))).data!.name).toBe("rewritten");
    const index = (await json(await emu.fetch("/_emulator"))).data!.routes as { path: string }[];
    expect(index.map((r) => r.path)).toContain("/_emulator/test-switch");
    const doc = (await (await emu.fetch("/_emulator/openapi-control.json")).json()) as { paths: object };
    expect(Object.keys(doc.paths)).toContain("/_emulator/test-switch");
    await emu.reset();
    expect(resets).toBe(1);
    expect((await json(await emu.fetch(CARD, { headers: key }))).data!.name).toBe(before);
  });

  it("the deviation plugin switches one deviation on per emulator, and a reset switches it off", async () => {
    emu = await createEmulator({ seed: 1, clock: "manual", chain: false, plugins: [deviations] });
    const other = await createEmulator({ seed: 1, clock: "manual", chain: false, plugins: [deviations] });
    try {
      const key = { "X-API-Key": emu.key("demo") };
      const on = await emu.fetch("/_emulator/deviations", post({ name: "schema_required_missing" }));
      expect((await json(on)).data).toEqual({ active: ["schema_required_missing"] });
      expect((await json(await emu.fetch(CARD, { headers: key }))).data).not.toHaveProperty("code");
      const elsewhere = await json(await other.fetch(CARD, { headers: { "X-API-Key": other.key("demo") } }));
      expect(elsewhere.data).toHaveProperty("code");
      await emu.reset();
      expect((await json(await emu.fetch("/_emulator/deviations"))).data!.active).toEqual([]);
      expect((await json(await emu.fetch(CARD, { headers: key }))).data).toHaveProperty("code");
    } finally {
      await other.close();
    }
  });
});
