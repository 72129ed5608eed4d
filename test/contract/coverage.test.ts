import { describe, expect, it } from "vitest";
import { OPERATIONS, operationMatcher } from "../../contract/index.ts";
import { apiRoutes } from "../../emulator/app.ts";

// The contract covers the API: every route the emulator serves is a contract
// operation, served once, and the suite's matcher finds the same operation the
// server routes to.

describe("the contract and the served routes", () => {
  it("every /api/v1 route serves a contract operation, with its method and path", () => {
    expect(apiRoutes.filter((r) => !r.operation).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    for (const r of apiRoutes) expect(`${r.method} ${r.path}`).toBe(`${r.operation!.method} ${r.operation!.path}`);
  });

  it("every operation is served exactly once, and ids are unique", () => {
    const served = new Map<string, number>();
    for (const r of apiRoutes) served.set(r.operation!.id, (served.get(r.operation!.id) ?? 0) + 1);
    expect(
      OPERATIONS.filter((op) => served.get(op.id) !== 1).map((op) => `${op.id} served ${served.get(op.id) ?? 0} times`),
    ).toEqual([]);
    expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
    expect(OPERATIONS.length).toBe(apiRoutes.length);
  });

  it("the suite's matcher, which knows only the contract, picks the operation the server routes to", () => {
    const match = operationMatcher(OPERATIONS);
    const samples: [string, string, string][] = [
      ["GET", "/api/v1/webhooks/deliveries", "webhooks.deliveries"],
      ["GET", "/api/v1/webhooks/17", "webhooks.get"],
      ["GET", "/api/v1/pokemon/cards/base1-4", "cards.get"],
      ["GET", "/api/v1/pokemon/cards/base1-4/prices", "cards.prices"],
      ["GET", "/api/v1/health", "service.health"],
      ["POST", "/api/v1/mystery/purchase", "gacha.purchase"],
    ];
    for (const [method, path, id] of samples) expect(match(method, path)?.id, `${method} ${path}`).toBe(id);
    expect(match("GET", "/api/v1/magic/cards/x")).toBeNull();
    expect(match("DELETE", "/api/v1/pokemon/cards/base1-4")).toBeNull();
  });
});
