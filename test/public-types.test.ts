import request from "supertest";
import { describe, it, expect, expectTypeOf } from "vitest";
import * as pub from "../emulator/public.ts";
import type * as P from "../emulator/public-types.ts";
import * as internal from "../emulator/index.ts";
import type { EmulatorOptions } from "../emulator/config.ts";
import type { ChainHostOptions } from "../emulator/chain-host.ts";
import type { KeyKind } from "../emulator/state/schema.ts";
import type { WebhookChaos } from "../emulator/pipeline/webhook-chaos.ts";
import type { JournalBody, JournalEntry } from "../emulator/ui/journal.ts";
import type { RequestFilter } from "../emulator/ui/journal-filter.ts";
import type { Stub, StubMatch, StubSpec } from "../emulator/pipeline/stubs.ts";
import type { Panel } from "../emulator/ui/panels.ts";
import type { CatalogOverlay } from "../emulator/catalog-data/overlay.ts";
import type { StateExport } from "../emulator/state/store.ts";
import type { Chain } from "../chain/index.ts";

// The package's public types (emulator/public-types.ts) are plain copies of internal ones, so a user's
// `tsc` never loads the internals (test/package-types.test.ts): here the compiler checks that each copy
// still says what the internal type says (npm run typecheck), and the entry gives the same emulator.

describe("the public types", () => {
  it("are the internal types, written plainly", () => {
    expectTypeOf<P.KeyKind>().toEqualTypeOf<KeyKind>();
    expectTypeOf<P.WebhookChaos>().toEqualTypeOf<WebhookChaos>();
    expectTypeOf<P.JournalBody>().toEqualTypeOf<JournalBody>();
    expectTypeOf<P.JournalEntry>().toEqualTypeOf<JournalEntry>();
    // (zod's input type of the query, an intersection: the same values either way)
    expectTypeOf<P.RequestFilter>().toExtend<RequestFilter>();
    expectTypeOf<RequestFilter>().toExtend<P.RequestFilter>();
    expectTypeOf<P.StubMatch>().toEqualTypeOf<StubMatch>();
    expectTypeOf<P.StubSpec>().toEqualTypeOf<StubSpec>();
    expectTypeOf<P.Stub>().toEqualTypeOf<Stub>();
    expectTypeOf<P.Panel>().toEqualTypeOf<Panel>();
    expectTypeOf<P.ClockMode>().toEqualTypeOf<internal.ClockMode>();
  });

  it("name every option, each as the internal option says it or more loosely where that is internal", () => {
    expectTypeOf<keyof P.EmulatorOptions>().toEqualTypeOf<keyof EmulatorOptions>();
    type Same = Exclude<keyof EmulatorOptions, "state" | "chain" | "plugins" | "webhookChaos">;
    expectTypeOf<Pick<P.EmulatorOptions, Same>>().toEqualTypeOf<Pick<EmulatorOptions, Same>>();
    // The chain's options but the listener policy the emulator itself passes (@internal).
    expectTypeOf<P.EmulatorChainOptions>().toEqualTypeOf<Omit<ChainHostOptions, "rpcGuard">>();
    // What the emulator exports it takes back; a plugin (a test aid) is opaque.
    expectTypeOf<StateExport>().toExtend<P.StateExport>();
    expectTypeOf<NonNullable<EmulatorOptions["plugins"]>>().toExtend<NonNullable<P.EmulatorOptions["plugins"]>>();
    expectTypeOf<CatalogOverlay>().toExtend<P.CatalogOverlay>();
    // The gateway is the chain as emu.chain shows it (a user reads it as `Chain` for the viem clients).
    expectTypeOf<Chain>().toExtend<P.EmulatorChain>();
    expectTypeOf<internal.Emulator>().toExtend<P.Emulator>();
  });

  it("type the same emulator: the entry starts what the internal entry starts", async () => {
    expect(pub.IN_PROCESS_ORIGIN).toBe(internal.IN_PROCESS_ORIGIN);
    expect(pub.DEFAULT_MANUAL_START).toBe(internal.DEFAULT_MANUAL_START);
    expect(pub.initialState).toBe(internal.initialState);
    for (const name of [
      "VirtualClock",
      "StateFileError",
      "OverlayError",
      "WorldError",
      "ControlError",
      "Replay",
    ] as const)
      expect(pub[name]).toBe(internal[name]);
    const emu = await pub.createEmulator({ seed: 3, clock: "manual", port: 0 });
    try {
      const res = await request(emu.url!).get("/api/v1/health");
      expect([res.status, res.body.data?.status]).toEqual([200, "ok"]);
      expect(emu.keys.map((k) => k.name)).toContain("demo");
      // The internals are still there at run time (the project's tests use them); only the public type omits them.
      expect("services" in emu).toBe(true);
    } finally {
      await emu.close();
    }
  });
});
