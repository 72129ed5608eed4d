import type { Emulator } from "../emulator/index.ts";
import { PROFILES } from "../conformance/types.ts";
import { fetchVia } from "./helpers.ts";

// The conformance suite's options against an in-process emulator, as the suite's own trust tests run it:
// every profile, emulator mode, the fixture keys, requests through the emulator's fetch.

export const suiteOptions = (emu: Emulator) => ({
  baseUrl: emu.url,
  partnerKey: emu.key("demo"),
  tenantKey: emu.key("tenant"),
  profiles: [...PROFILES],
  mode: "emulator" as const,
  fetch: fetchVia(emu),
});
