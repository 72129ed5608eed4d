import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { rawCall } from "./helpers.ts";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { apiRoutes } from "../emulator/app.ts";
import { AREA_RUNTIMES } from "../emulator/areas/area.ts";
import { runWorker, serial } from "../emulator/areas/mystery/worker.ts";
import { withKeyLock } from "../emulator/pipeline/key-lock.ts";
import { journalOf } from "../emulator/ui/journal.ts";

// No module-level mutable state (issue 27): what an emulator holds besides its
// state lives in its runtime (`services.runtime`, emulator/pipeline/runtime.ts),
// so two emulators in one process share nothing. Checked three ways: a source
// scan for top-level mutable declarations, a walk over every module's exports
// (collections and data must come out of a session unchanged), and two emulators
// side by side.

const ROOT = resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(join(ROOT, dir))) {
    const p = join(dir, f);
    if (statSync(join(ROOT, p)).isDirectory()) out.push(...sources(p));
    else if (f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

const FILES = [...sources("cli"), ...sources("emulator"), ...sources("contract")];

/**
 * The top-level mutable declarations kept, each with why it is not per-emulator state: caches of
 * immutable data (what they hold depends only on the key), side tables on one request's objects,
 * and what is process-wide by nature. Anything else goes in the emulator's runtime.
 */
const ALLOWED: Record<string, { names: string[]; why: string }> = {
  "emulator/pipeline/metering.ts": { names: ["cached"], why: "memo of a pure function (the month of a time)" },
  "emulator/pipeline/envelope.ts": { names: ["BAGS"], why: "side table on one answer (a Response): goes with it" },
  "emulator/pipeline/rate-limit.ts": { names: ["keyBuckets", "ipBuckets"], why: "bucket names interned from a key/IP" },
  "emulator/areas/catalog/search.ts": {
    names: ["answers", "answerBytes", "ids", "nextCatalogId", "jsonCache"],
    why: "bounded cache of answers over an immutable catalog, keyed by the catalog's own records",
  },
  "emulator/areas/catalog/query/compile.ts": { names: ["caches", "naturalCaches"], why: "values of immutable records" },
  "emulator/areas/catalog/routes.ts": { names: ["cardReplies"], why: "answers of an immutable card record" },
  "emulator/areas/warehouse/business-days.ts": {
    names: ["fmt"],
    why: "one Intl formatter, made on first use (its zone data cost every import), same for every emulator",
  },
  "emulator/areas/warehouse/state.ts": { names: ["candidateCache"], why: "derived from the immutable catalog index" },
  "emulator/areas/mystery/shop/items.ts": { names: ["cache"], why: "derived from the immutable catalog index" },
  "emulator/areas/vision/fixture-host.ts": { names: ["cache"], why: "bytes of the shipped fixture images" },
  "emulator/catalog-data/catalog-cache.ts": {
    names: ["shared"],
    why: "the seeded catalog index, immutable, keyed by its inputs (seed, size): a bounded cache shared by emulators",
  },
  "emulator/state/slices.ts": { names: ["declared"], why: "the slice declarations, made once at import (declarative)" },
  "emulator/state/state-claim.ts": { names: ["heldHere"], why: "state files this process holds: process-wide" },
  "contract/zod.ts": { names: ["CODES"], why: "codes tagged on schema objects where they are declared" },
  "emulator/app.ts": {
    names: ["ownApp"],
    why: "the Hono app of the emulator's own routes, stateless (each request names its emulator): built once per process",
  },
  "contract/route-table.ts": {
    names: ["compiledLists"],
    why: "memo of a pure function (a route list's compiled paths, no values), bounded: shared by the emulators of a process",
  },
};

/**
 * `let`/`var`; `const x = new Map|Set|WeakMap|WeakSet` unless typed ReadonlyMap/ReadonlySet (the
 * compiler then refuses writes); `const x = []` or `{}` (an accumulator).
 */
const NOT_READONLY = String.raw`(?::(?!\s*Readonly(?:Map|Set)\b)[^=]+)?`;
const MUTABLE_VALUE = String.raw`(?:new (?:Map|Set|WeakMap|WeakSet)\b|\[\]|\{\})`;
const MUTABLE_CONST = String.raw`const (\w+)${NOT_READONLY}\s*=\s*${MUTABLE_VALUE}`;
const MUTABLE_DECL = new RegExp(String.raw`^(?:export )?(?:(?:let|var) (\w+)|${MUTABLE_CONST})`);

describe("module-level mutable state", () => {
  it("no top-level let, collection or empty accumulator outside the justified allow-list", () => {
    const found: string[] = [];
    for (const file of FILES) {
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          const m = MUTABLE_DECL.exec(line);
          const name = m && (m[1] ?? m[2])!;
          if (name && !ALLOWED[file]?.names.includes(name)) found.push(`${file}:${i + 1} ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("the allow-list names only declarations that still exist", () => {
    for (const [file, { names }] of Object.entries(ALLOWED)) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const name of names)
        expect(new RegExp(`^(?:export )?(?:let|const) ${name}\\b`, "m").test(text), `${file} ${name}`).toBe(true);
    }
  });

  describe("every module's exports", () => {
    const exported: Array<{ where: string; value: unknown; before: string }> = [];
    let emu: Emulator;

    beforeAll(async () => {
      // The CLI entry runs on import; its modules are the entry layer, not the emulator's.
      for (const file of FILES.filter((f) => f !== "cli/main.ts")) {
        const mod = (await import(pathToFileURL(join(ROOT, file)).href)) as Record<string, unknown>;
        for (const [name, value] of Object.entries(mod))
          if (value !== null && typeof value === "object")
            exported.push({ where: `${file} ${name}`, value, before: "" });
      }
      for (const e of exported) e.before = fingerprint(e.value);
      emu = await createEmulator({ seed: 1, clock: "manual", port: 0 });
      await session(emu);
    });
    afterAll(() => emu?.close());

    it("an object that is not plain data is frozen or a zod schema (immutable)", () => {
      const odd = exported.filter(({ value }) => !isData(value) && !Object.isFrozen(value) && !isZod(value));
      expect(odd.map((e) => e.where)).toEqual([]);
    });

    it("exported collections and data come out of a session across every route unchanged", () => {
      expect(exported.length).toBeGreaterThan(300);
      const changed = exported.filter((e) => fingerprint(e.value) !== e.before).map((e) => e.where);
      expect(changed).toEqual([]);
    });
  });
});

describe("two emulators in one process", () => {
  let a: Emulator;
  let b: Emulator;
  beforeAll(async () => {
    const start = () => createEmulator({ seed: 1, clock: "manual", port: 0 });
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("a queue held in one does not hold the other's; a failed job does not wedge its own", async () => {
    let release!: () => void;
    const held = serial(a.services, () => new Promise<void>((r) => (release = r)));
    const order: string[] = [];
    await runWorker(b.services).then(() => order.push("b's worker ran"));
    await withKeyLock(b.services, "tx:1", () => order.push("b's lock taken"));
    const failing = withKeyLock(a.services, "tx:1", () => Promise.reject(new Error("boom")));
    const afterFailure = withKeyLock(a.services, "tx:1", () => order.push("a's lock after the failure"));
    expect(order).toEqual(["b's worker ran", "b's lock taken"]);
    await expect(failing).rejects.toThrow("boom");
    await afterFailure;
    release();
    await held;
    await runWorker(a.services).then(() => order.push("a's worker ran"));
    expect(order).toEqual(["b's worker ran", "b's lock taken", "a's lock after the failure", "a's worker ran"]);
  });

  it("each has its own runtime: area runtimes, journal and timers", async () => {
    expect(a.services.runtime).not.toBe(b.services.runtime);
    const ra = a.services.runtime.of(AREA_RUNTIMES);
    const rb = b.services.runtime.of(AREA_RUNTIMES);
    expect([...ra.keys()].sort()).toEqual(["instant", "mystery", "warehouse", "webhooks"]);
    for (const [name, runtime] of ra) expect(rb.get(name), name).not.toBe(runtime);
    await request(a.url).get("/api/v1/health").expect(200);
    expect(
      journalOf(a.services)
        .list({})
        .map((e) => e.path),
    ).toEqual(["/api/v1/health"]);
    expect(journalOf(b.services).list({})).toEqual([]);
    // A timer armed in one emulator's clock is not in the other's.
    const before = b.clock.pending().length;
    a.clock.after(60_000, () => {}, "a's own timer");
    expect(b.clock.pending().length).toBe(before);
  });
});

const isZod = (v: unknown) => typeof v === "object" && v !== null && "_zod" in v;

function isData(v: unknown): boolean {
  if (Array.isArray(v) || [Map, Set, WeakMap, WeakSet].some((c) => v instanceof c)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The shape and values of plain data, collections included (a WeakMap cannot be walked: its presence is all). */
function fingerprint(v: unknown, seen = new Set<object>()): string {
  if (typeof v === "function") return "fn";
  if (v === null || typeof v !== "object") return typeof v === "bigint" ? `${v}n` : (JSON.stringify(v) ?? "undefined");
  if (seen.has(v)) return "cycle";
  seen.add(v);
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${fingerprint(k, seen)}:${fingerprint(x, seen)}`)}}`;
  if (v instanceof Set) return `Set{${[...v].map((x) => fingerprint(x, seen)).join(",")}}`;
  if (!isData(v)) return `<${v.constructor?.name ?? "object"}>`;
  const out = Object.entries(v).map(([k, x]) => `${k}:${fingerprint(x, seen)}`);
  return `${Array.isArray(v) ? "[" : "{"}${out.join(",")}`;
}

/** Every API route once with the fixture keys (most answer 4xx here: what matters is what they touch), then a reset. */
async function session(emu: Emulator): Promise<void> {
  const keys = ["demo", "tenant", "catalog-only"].map((n) => emu.key(n));
  for (const r of apiRoutes) {
    const fill = (_m: string, name: string, re?: string) =>
      re?.includes("pokemon") ? "pokemon" : name === "id" ? "1" : "x";
    const path = `/api/v1${r.path}`.replace(/:(\w+)(\{[^}]*\})?/g, fill);
    for (const key of keys) {
      const headers = { "X-API-Key": key, "Content-Type": "application/json" };
      const res = await rawCall(request(emu.url), r.method, path, headers, r.method !== "GET" ? "{}" : undefined);
      // Without a chain its routes answer 503 chain_unavailable; never a 500.
      expect(res.status, `${r.method} ${path}`).not.toBe(500);
    }
  }
  await request(emu.url).post("/_emulator/reset").expect(200);
}
