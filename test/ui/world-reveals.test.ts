import { describe, expect, it } from "vitest";
import { startEmulator, useEmulator, type Api } from "../helpers.ts";

// The dashboard's header names the loaded world and its Clock & timers view lists the steered reveals still
// waiting (issue 35): the page has the places, its script reads them from the control routes, and those
// routes answer the world's name and its queued reveal (the browser test drives the rest of the page).

let api: Api;
useEmulator((c) => ({ api } = c), {
  chain: { rpcPort: false, vrf: "manual" },
  world: {
    version: 1,
    accounts: [{ id: "my-shop", billing_model: "POOL", keys: [{ name: "shop" }] }],
    reveals: [{ tier_id: 1, account: "my-shop", external_user_id: "alice", band: { min_usd: "2", max_usd: "3" } }],
  },
});

const served = async (path: string) => (await api.get(path).buffer(true).expect(200)).text;

describe("the dashboard shows the loaded world and the pending steered reveals", () => {
  it("the page has the world's place in the header and its script reads health and both reveal queues", async () => {
    expect(await served("/_emulator/ui")).toContain('<span id="world" data-testid="world">');
    // The script is app.js and the modules it imports (emulator/ui/app/), served beside the page.
    const modules = new Map<string, string>();
    for (const queue = ["app.js"]; queue.length;) {
      const name = queue.shift()!;
      if (modules.has(name)) continue;
      const text = await served(`/_emulator/ui/${name}`);
      modules.set(name, text);
      for (const m of text.matchAll(/from "\.\/([a-z-]+\.js)"/g)) queue.push(m[1]!);
    }
    const app = [...modules.values()].join("\n");
    // The routes it reads come from its one routes table, as the control client names them.
    expect(app).toMatch(/health: \{ get: \{ method: "GET", path: "\/health" \} \}/);
    expect(app).toContain("control.health.get()");
    expect(app).toMatch(/World: \$\{world\.file\}/);
    expect(app).toContain('reveals: { method: "GET", path: "/mystery/reveals" }');
    expect(app).toContain('reveals: { method: "GET", path: "/instant/reveals" }');
    expect(app).toMatch(/control\.mystery\.reveals\(\),\s*page\.control\.instant\.reveals\(\)/);
    expect(app).toContain('"data-testid": "reveal-row"');
  });

  it("what the script reads: the world's name (a world given as data) and its queued reveal", async () => {
    const health = (await api.get("/_emulator/health").expect(200)).body.data;
    expect(health.world).toEqual({ file: "(world option)", accounts: 1, keys: ["shop"] });
    const mystery = (await api.get("/_emulator/mystery/reveals").expect(200)).body.data;
    expect(mystery.pending).toMatchObject([
      { tier_id: 1, account_id: "my-shop", external_user_id: "alice", items: [] },
    ]);
    expect((await api.get("/_emulator/instant/reveals").expect(200)).body.data.pending).toEqual([]);
  });

  it("an emulator without a world says so (world: null)", async () => {
    const bare = await startEmulator();
    try {
      expect((await bare.api.get("/_emulator/health").expect(200)).body.data.world).toBeNull();
    } finally {
      await bare.close();
    }
  });
});
