import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { worldJsonSchema } from "../../emulator/world/schema.ts";
import { parseWorld } from "../../emulator/world/checks.ts";
import { STARTER_WORLD } from "../../emulator/world/starter.ts";

// The published JSON Schema is the zod schema's, and the starter world is a valid world.

describe("the world file's published forms", () => {
  it("docs/world.schema.json is the schema `npx emulator world --schema` prints (rewrite it with --out)", () => {
    const file = JSON.parse(readFileSync(new URL("../../docs/world.schema.json", import.meta.url), "utf8")) as unknown;
    expect(file).toEqual(worldJsonSchema());
  });

  it("the JSON Schema names the allowed values (scopes, card states) and refuses unknown keys", () => {
    const schema = worldJsonSchema() as { properties: Record<string, unknown>; additionalProperties: unknown };
    expect(schema.additionalProperties).toBe(false);
    const text = JSON.stringify(schema);
    expect(text).toContain('"packs:purchase"');
    expect(text).toContain('"write:inbound_shipment"');
    expect(text).toContain('"pending","unpriced","priced"');
    expect(Object.keys(schema.properties)).toEqual([
      "version",
      "clock",
      "catalog_overlay",
      "accounts",
      "tenants",
      "instant",
      "faults",
      "reveals",
    ]);
  });

  it("the starter world (npx emulator init) is valid and declares every part", () => {
    const r = parseWorld(parse(STARTER_WORLD));
    expect(r.problems).toEqual([]);
    const world = r.world!;
    expect(world.accounts!.map((a) => a.billing_model)).toEqual(["POOL", "TIER"]);
    expect(world.accounts![0]!.webhooks).toHaveLength(1);
    expect(world.accounts![0]!.custodial_users!.map((u) => u.usdc)).toEqual(["100.00", "2.50"]);
    expect(world.tenants![0]!.cards!.map((c) => c.state)).toEqual(["pending", "unpriced", "priced"]);
    expect(world.instant!.packet_types).toEqual([{ packet_type_id: 4, price_usdc: "3.99", stock: 2 }]);
    expect(world.faults).toHaveLength(1);
    expect(world.reveals).toEqual([
      { tier_id: 1, account: "my-shop", external_user_id: "alice", band: { min_usd: "2", max_usd: "3" } },
    ]);
    // The test values are named where they apply (docs/test-values.md).
    for (const value of ["kyc_approve", "kyc_decline", '"1.23"', '"FAIL LABEL"', '"RETURN TO SENDER"'])
      expect(STARTER_WORLD).toContain(value);
    expect(world.clock).toEqual({ start: "2026-01-15T12:00:00Z", mode: "manual" });
  });
});
