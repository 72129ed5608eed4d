import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { optionsDocs, withOptionsDocs } from "../scripts/options-docs.mts";
import { HardhatMissingError, HARDHAT_RANGE } from "../chain/provider.ts";

// The README's createEmulator options are the EmulatorOptions type's, with its doc comments: an option
// added to the type and not to the README fails here. Fix with `npx tsx scripts/options-docs.mts --write`.

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

describe("README createEmulator options", () => {
  it("are exactly the ones generated from EmulatorOptions", () => {
    expect(withOptionsDocs(readme, optionsDocs())).toBe(readme);
  });

  it("name the options the hand-written list had missed, and chain's object form", () => {
    const names = [...optionsDocs().matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]);
    expect(names).toEqual(
      expect.arrayContaining([
        "stateFile",
        "webhookChaos",
        "validateResponses",
        "replay",
        "catalogOverlay",
        "plugins",
        "world",
        "chain",
        "chain.rpcPort",
        "chain.rpcUrl",
        "chain.vrf",
        "chain.vrfDelayMs",
      ]),
    );
    // Set by the emulator itself (@internal), not a caller's option.
    expect(names).not.toContain("chain.rpcGuard");
  });
});

describe("errors in the caller's own terms", () => {
  it("a chain without Hardhat names createEmulator's option in-process, the flag only when the CLI says so", () => {
    const inProcess = new HardhatMissingError().message;
    expect(inProcess).toBe(
      `the local chain needs Hardhat, which is not installed: npm install -D hardhat@${HARDHAT_RANGE} (or start without a chain: leave out createEmulator's \`chain\` option)`,
    );
    expect(inProcess).not.toMatch(/--[a-z]/);
    expect(new HardhatMissingError("--no-chain").message).toMatch(/\(or start without a chain: --no-chain\)$/);
  });
});
