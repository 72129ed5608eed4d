import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STEPS } from "../emulator/pipeline/steps/index.ts";
import { planOf } from "../emulator/pipeline/plan.ts";
import { apiRoutes, healthRoute } from "../emulator/app.ts";
import { useEmulator, type Api, type Emulator } from "./helpers.ts";

// The pipeline's order lives in one array (emulator/pipeline/steps/index.ts); docs/architecture.md
// “Request flow” shows it verbatim, and each step is one file of emulator/pipeline/steps/.

const ROOT = join(import.meta.dirname, "..");
const STEPS_DIR = join(ROOT, "emulator/pipeline/steps");

describe("the pipeline's steps", () => {
  it("docs/architecture.md “Request flow” shows the STEPS array of steps/index.ts verbatim", async () => {
    const source = readFileSync(join(STEPS_DIR, "index.ts"), "utf8");
    const array = /^export const STEPS\b[\s\S]*?^\]\);$/m.exec(source)?.[0];
    expect(array).toBeDefined();
    const doc = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
    const start = doc.indexOf("\n## Request flow\n");
    const flow = doc.slice(start, doc.indexOf("\n## ", start + 1));
    expect(flow).toContain("```ts\n" + array + "\n```");
    // The array's identifiers, in order, are the steps the code runs.
    const named = [...array!.matchAll(/^ {2}(\w+),/gm)].map((m) => m[1]);
    const exported = new Map<unknown, string>();
    for (const file of readdirSync(STEPS_DIR))
      for (const [name, value] of Object.entries((await import(join(STEPS_DIR, file))) as Record<string, unknown>))
        if (file !== "index.ts") exported.set(value, name);
    expect(STEPS.map((s) => exported.get(s))).toEqual(named);
    expect(new Set(STEPS.map((s) => s.name)).size).toBe(STEPS.length);
  });

  it("each step is one file, and every step file is in the order", async () => {
    const files = readdirSync(STEPS_DIR).filter((f) => f !== "index.ts" && f !== "context.ts");
    const listed = new Set(STEPS);
    for (const file of files) {
      const mod = (await import(join(STEPS_DIR, file))) as Record<string, unknown>;
      const steps = Object.values(mod).filter((v) => listed.has(v as never));
      expect(steps.length, file).toBe(1);
    }
    expect(files.length).toBe(STEPS.length);
  });

  it("the steps that run on every request are the last three: integration issue, refund, answer", () => {
    expect(STEPS.filter((s) => s.always).map((s) => s.name)).toEqual(["integration issue", "refund", "answer"]);
    expect(STEPS.slice(-3).every((s) => s.always)).toBe(true);
  });
});

describe("a route's plan (the steps it needs, decided once per route)", () => {
  const names = (spec: (typeof apiRoutes)[number]) => planOf(spec).map((s) => s.name);
  const route = (method: string, path: string) => apiRoutes.find((r) => r.method === method && r.path === path)!;

  it("health is answered at once: the public route step, then the answer", () => {
    expect(names(healthRoute)).toEqual(["public route", "answer"]);
  });

  it("a metered, gated, cached or parameterised route keeps those steps; one without leaves them out", () => {
    const card = names(route("GET", "/:game{pokemon|onepiece|azuki}/cards/:id"));
    expect(card).toEqual([
      "IP budget",
      "authentication",
      "surface budget",
      "authorization",
      "stub",
      "concurrency gate",
      "metering",
      "faults",
      "input",
      "replay",
      "reconcile",
      "handler",
      "refund",
      "answer",
    ]);
    const price = names(route("GET", "/mystery/price"));
    expect(price).toContain("fresh budget");
    expect(price).toContain("cached answer");
    expect(price).not.toContain("metering");
    expect(price).not.toContain("refund");
  });

  it("every plan keeps STEPS' order, and every route its answer", () => {
    for (const spec of apiRoutes) {
      const plan = planOf(spec);
      const at = plan.map((s) => STEPS.indexOf(s));
      expect(at, spec.path).toEqual([...at].sort((a, b) => a - b));
      expect(plan.at(-1)!.name).toBe("answer");
    }
  });
});

describe("a request several steps would refuse gets the first one's answer", () => {
  let emu: Emulator;
  let api: Api;
  useEmulator((ctx) => ({ emu, api } = ctx), { validateResponses: false });

  const LONG = `/api/v1/pokemon/cards/${"a".repeat(256)}`;
  const get = async (path: string, key?: string) => {
    const res = await api.get(path).set(key ? { "X-API-Key": key } : {});
    const body = res.body as { error?: string };
    return [res.status, body.error, res.headers["x-credits-cost"] ?? null];
  };

  it("authentication, then authorization, then faults, then identifiers", async () => {
    const fault = await api
      .post("/_emulator/faults")
      .send({ match: { path: "/api/v1/pokemon/cards/*" }, status: 503, error: "overloaded", times: 1 });
    expect(fault.status).toBe(201);
    // No key: 401 before the tenant key's 403, the fault and the identifier check.
    expect(await get(LONG)).toEqual([401, "API key required", null]);
    // A tenant key on the catalog: 403, the fault still unspent.
    expect(await get(LONG, emu.key("tenant"))).toEqual([403, "Insufficient permissions", null]);
    // A partner key: the fault answers before the identifier check (refunded).
    expect(await get(LONG, emu.key("demo"))).toEqual([503, "overloaded", "0"]);
    // The fault spent: the over-long identifier is refused (refunded too).
    expect(await get(LONG, emu.key("demo"))).toEqual([400, "identifier_too_long", "0"]);
  });
});
