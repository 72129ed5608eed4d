import { writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../emulator/index.ts";

// A client generated from the published document (openapi-typescript +
// openapi-fetch) type-checks against it and drives a real flow: what a codegen
// user does on day one.

const dir = join(__dirname, "openapi-client");

/** What flow.ts returns (typed here by hand: its own types come from the generated file). */
interface FlowResult {
  total: number;
  firstName: string;
  cardId: string;
  tcgplayer: string | null;
  balance: number;
  secretLength: number;
  listedIds: number[];
  deleted: boolean | undefined;
  missingStatus: number;
  missingError: string | undefined;
}
let emu: Emulator;
beforeAll(async () => {
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0 });
});
afterAll(() => emu.close());

describe("a client generated from the OpenAPI document", () => {
  it("type-checks a partner's flow and runs it against the emulator", async () => {
    const doc = (await request(emu.url).get("/_emulator/openapi.json")).body;
    writeFileSync(join(dir, "api.generated.ts"), astToString(await openapiTS(doc)));

    const program = ts.createProgram([join(dir, "flow.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toEqual([]);

    // A computed path: tsc must not follow it (the generated types exist only after this test wrote them).
    const flowPath: string = join(dir, "flow.ts");
    const { flow } = (await import(flowPath)) as { flow: (url: string, key: string) => Promise<FlowResult> };
    const out = await flow(emu.url, emu.key("demo"));
    expect(out.firstName).toMatch(/charizard/i);
    expect(out.total).toBeGreaterThanOrEqual(1);
    expect(out.cardId).toMatch(/\S/);
    expect(out.tcgplayer === null || /^\d+$/.test(out.tcgplayer)).toBe(true);
    expect(out.balance).toBeGreaterThan(0);
    expect(out.secretLength).toBe(64);
    expect(out.listedIds).toHaveLength(1);
    expect(out.deleted).toBe(true);
    expect(out.missingStatus).toBe(404);
    expect(out.missingError).toBe("not_found");
  });
});
