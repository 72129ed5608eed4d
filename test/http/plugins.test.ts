import { afterEach, describe, expect, it } from "vitest";
import request from "supertest";
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
const json = async (res: PromiseLike<{ body: unknown }>) => (await res).body as Envelope;
const CARD = "/api/v1/pokemon/cards/base1-4";
const start = (options: Parameters<typeof createEmulator>[0] = {}) =>
  createEmulator({ seed: 1, clock: "manual", chain: false, port: 0, ...options });

describe("emulator plugins", () => {
  it("without a plugin, there is no deviation route and answers are the emulator's own", async () => {
    emu = await start();
    const res = await request(emu.url).post("/_emulator/deviations").send({ name: "schema_required_missing" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    const index = (await json(request(emu.url).get("/_emulator"))).data!.routes as { path: string }[];
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
    emu = await start({ plugins: [plugin] });
    const api = request(emu.url);
    const card = () => json(api.get(CARD).set("X-API-Key", emu!.key("demo")));
    const before = (await card()).data!.name;
    expect(before).not.toBe("rewritten");
    expect((await json(api.post("/_emulator/test-switch").send({}))).data).toEqual({ on: true });
    expect((await card()).data!.name).toBe("rewritten");
    const index = (await json(api.get("/_emulator"))).data!.routes as { path: string }[];
    expect(index.map((r) => r.path)).toContain("/_emulator/test-switch");
    const doc = (await api.get("/_emulator/openapi-control.json")).body as { paths: object };
    expect(Object.keys(doc.paths)).toContain("/_emulator/test-switch");
    await emu.reset();
    expect(resets).toBe(1);
    expect((await card()).data!.name).toBe(before);
  });

  it("the deviation plugin switches one deviation on per emulator, and a reset switches it off", async () => {
    emu = await start({ plugins: [deviations] });
    const other = await start({ plugins: [deviations] });
    try {
      const api = request(emu.url);
      const card = () => json(api.get(CARD).set("X-API-Key", emu!.key("demo")));
      const on = api.post("/_emulator/deviations").send({ name: "schema_required_missing" });
      expect((await json(on)).data).toEqual({ active: ["schema_required_missing"] });
      expect((await card()).data).not.toHaveProperty("code");
      const elsewhere = await json(request(other.url).get(CARD).set("X-API-Key", other.key("demo")));
      expect(elsewhere.data).toHaveProperty("code");
      await emu.reset();
      expect((await json(api.get("/_emulator/deviations"))).data!.active).toEqual([]);
      expect((await card()).data).toHaveProperty("code");
    } finally {
      await other.close();
    }
  });
});
