import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evmAddress, MAX_IDENTIFIER, z } from "../../contract/index.ts";
import { instantArea } from "../../emulator/areas/instant/index.ts";
import { mysteryArea } from "../../emulator/areas/mystery/index.ts";

// The contract is the only validator of the mystery and instant requests
// (docs/decisions.md "The contract is the only validator: mystery and
// instant"): every route serves its operation's own schema, never a `parse:`
// override of it, and the areas keep no parse.ts of their own.

const ROOT = join(import.meta.dirname, "..", "..");

describe("mystery and instant routes validate by the contract alone", () => {
  for (const area of [mysteryArea, instantArea])
    it(`${area.name}: every route serves its operation's schema as declared (no parse override)`, () => {
      expect(area.routes.length).toBeGreaterThan(0);
      for (const route of area.routes) {
        const what = `${route.method} ${route.path}`;
        expect(route.operation, what).toBeDefined();
        // serve() replaces the schema only when a route declares `parse:`.
        expect(route.schema, what).toBe(route.operation!.schema);
      }
    });

  for (const area of [mysteryArea, instantArea])
    it(`${area.name}: every path parameter is declared by the contract, at most 255 characters`, () => {
      for (const route of area.routes) {
        const shape = (route.operation!.schema.params?.shape ?? {}) as Record<string, z.ZodType>;
        for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
          const what = `${route.method} ${route.path} :${name}`;
          expect(shape[name!], what).toBeDefined();
          const json = z.toJSONSchema(shape[name!]!, { io: "input", unrepresentable: "any" }) as { maxLength?: number };
          expect(json.maxLength, what).toBe(MAX_IDENTIFIER);
          const issue = shape[name!]!.safeParse("1".repeat(MAX_IDENTIFIER + 1)).error?.issues[0] as {
            params?: unknown;
          };
          expect(issue.params, what).toEqual({
            code: "identifier_too_long",
          });
        }
      }
    });

  it("no parse.ts is left under emulator/areas/mystery or emulator/areas/instant", () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true }))
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name === "parse.ts") found.push(join(dir, e.name));
    };
    for (const dir of ["emulator/areas/mystery", "emulator/areas/instant"]) {
      expect(existsSync(join(ROOT, dir))).toBe(true);
      walk(join(ROOT, dir));
    }
    expect(found).toEqual([]);
  });
});

describe("the one wallet rule (contract/input-fields.ts)", () => {
  const CHECKSUMMED = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
  const parse = (v: unknown) => evmAddress().safeParse(v);

  it("takes an address in one case as sent and in its EIP-55 form, and answers the checksummed form", () => {
    for (const v of [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`])
      expect(parse(v).data, v).toBe(CHECKSUMMED);
  });

  it("refuses mixed case whose checksum is wrong, and anything that is not 0x + 40 hex", () => {
    const wrongCase = `0xF${CHECKSUMMED.slice(3)}`; // one letter's case flipped
    expect(wrongCase).not.toBe(CHECKSUMMED);
    expect(wrongCase.toLowerCase()).toBe(CHECKSUMMED.toLowerCase());
    for (const v of [wrongCase, CHECKSUMMED.slice(0, 41), `${CHECKSUMMED}0`, CHECKSUMMED.slice(2), "nope", 42, null]) {
      const res = parse(v);
      expect(res.success, String(v)).toBe(false);
    }
    expect(parse(wrongCase).error?.issues[0]?.message).toMatch(/EIP-55 checksum is wrong/);
  });
});
