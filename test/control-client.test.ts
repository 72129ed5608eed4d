import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { controlRoutes } from "../emulator/app.ts";
import { clientNames } from "../emulator/control/client-names.ts";
import { connect, ControlError } from "../emulator/control-client.ts";
import { GENERATED, generateControlClient } from "../scripts/control-client.mts";
import { useEmulator, type Api, type Emulator } from "./helpers.ts";

// The typed control client: its table and types are generated from the control routes (so a new route is a
// method as soon as it is served and documented), every JSON route is reachable, errors are one typed error.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

describe("the typed control client", () => {
  it("is generated from the control routes as they are (npx tsx scripts/control-client.mts --write)", async () => {
    expect(readFileSync(GENERATED, "utf8")).toBe(await generateControlClient());
  });

  it("has one method for every control route that answers JSON, each name once", async () => {
    const names = clientNames(controlRoutes);
    const documented = (await api.get("/_emulator").expect(200)).body.data.routes as { method: string }[];
    expect(documented).toHaveLength(controlRoutes.length);
    const json = controlRoutes.filter((r) => !/^\/ui(\/|$)|^\/images\//.test(r.path));
    expect([...names.keys()].sort()).toEqual(json.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(names.values()).size).toBe(names.size);
    const client = emu.control as unknown as Record<string, Record<string, unknown>>;
    for (const name of names.values()) {
      const [group, method] = name.split(".") as [string, string];
      expect(typeof client[group]?.[method], name).toBe("function");
    }
    expect([...names.values()]).toEqual(
      expect.arrayContaining(["clock.advance", "faults.add", "events.trigger", "mystery.fund", "stubs.add"]),
    );
  });

  it("calls routes in-process with typed inputs and answers", async () => {
    const before = emu.clock.now();
    const clock = await emu.control.clock.advance({ ms: 60_000 });
    expect(Date.parse(clock.now)).toBe(before + 60_000);
    const fault = await emu.control.faults.add({ match: { path: "/api/v1/health" }, status: 503, error: "down" });
    expect(fault).toMatchObject({ id: "fault_1", status: 503, hits: 0 });
    expect((await emu.control.faults.list()).faults.map((f) => f.id)).toEqual(["fault_1"]);
    expect(await emu.control.faults.clear()).toEqual({ cleared: true });
    const pools = await emu.control.credits.get({ key: "demo" });
    expect(pools.balance).toBe(500);
    const journal = await emu.control.requests.list({ key: "demo", limit: 5 });
    expect(journal).toMatchObject({ count: 0, requests: [] });
  });

  it("throws one typed error carrying the envelope's code, status and details", async () => {
    const err = await emu.control.stubs
      .add({ operation: "webhooks.list", status: 200, body: { success: true, data: { webhooks: [{ id: "x" }] } } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ControlError);
    expect(err).toMatchObject({ status: 400, code: "invalid_stub", details: { pointer: "/data/webhooks/0/id" } });
  });

  it("connect(url) drives an emulator in another process the same way", async () => {
    const control = connect(emu.url);
    expect((await control.health.get()).status).toBe("ok");
    const stub = await control.stubs.add({
      operation: "cards.get",
      status: 503,
      body: { success: false, error: "overloaded", message: "stubbed" },
      times: 1,
    });
    expect(stub.id).toMatch(/^stub_\d+$/);
    expect((await control.stubs.clear()).cleared).toBe(1);
    await expect(control.state.restore({ id: "snap_missing" })).rejects.toMatchObject({ status: 404 });
  });

  it("types inputs from the route's declaration", () => {
    // Compile-time only: a wrong field type does not type-check.
    const typed = (c: Emulator["control"]) => {
      // @ts-expect-error ms is a number
      void c.clock.advance({ ms: "soon" });
      // @ts-expect-error a fault needs its status
      void c.faults.add({ match: { path: "/x" }, error: "e" });
    };
    expect(typeof typed).toBe("function");
  });
});
