import { afterAll, beforeAll } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import type { RouteSpec } from "../../emulator/pipeline/route.ts";
import { PARTNER_SCOPES } from "../../emulator/state/plans.ts";
import type { Api } from "../helpers.ts";

// For the tests that send every API route something: one emulator without rate limits, and a key per kind of
// caller (a POOL and a TIER partner with every partner scope of their model, a tenant), so each call gets past
// its route's access rule and reaches what the test aims at.

export interface EveryRoute {
  emu: Emulator;
  api: Api;
  /** The key that passes the route's access rule (null: a public route). */
  keyFor(spec: RouteSpec): string | null;
}

export function useEveryRoute(set: (ctx: EveryRoute) => void): void {
  let emu: Emulator | undefined;
  beforeAll(async () => {
    emu = await createEmulator({
      seed: 1,
      clock: "manual",
      ipRateLimitPerMin: 1e9,
      chain: { rpcPort: false },
      port: 0,
    });
    const api = request(emu.url);
    const make = async (body: Record<string, unknown>): Promise<string> =>
      (
        await api
          .post("/_emulator/keys")
          .send({ rate_limit_per_min: 1e9, balance: 1e6, ...body })
          .expect(201)
      ).body.data.key;
    const pool = await make({ kind: "partner", billing_model: "POOL", scopes: [...PARTNER_SCOPES] });
    const tier = await make({
      kind: "partner",
      billing_model: "TIER",
      scopes: PARTNER_SCOPES.filter((s) => s !== "pool:manage"),
    });
    const tenant = await make({ kind: "tenant" });
    const keyFor = (spec: RouteSpec): string | null => {
      if (spec.access === "public") return null;
      if (spec.access.kinds.includes("tenant") && !spec.access.kinds.includes("partner")) return tenant;
      if (spec.access.models && !spec.access.models.includes("POOL")) return tier;
      return pool;
    };
    set({ emu, api, keyFor });
  });
  afterAll(() => emu?.close());
}
