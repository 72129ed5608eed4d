import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEmulator, StateFileError, type StateExport } from "../../emulator/index.ts";
import { newKey, useEmulator, type Api, type Emulator } from "../helpers.ts";

// An import (PUT /_emulator/state, createEmulator({state}), a state file read
// on start) is validated whole before anything changes: a malformed one is a
// 400 invalid_state naming the field, and the running state stays as it was.

type Mutate = (doc: StateExport & { state: { areas: Record<string, unknown> } }) => void;

const BAD: Array<[string, Mutate, RegExp]> = [
  ["an area slice that is not an object", (d) => void (d.state.areas.webhooks = "x"), /areas\.webhooks/],
  [
    "a slice's field of the wrong kind",
    (d) =>
      void (d.state.areas.webhooks = {
        webhooks: {},
        deliveries: {},
        outbox: {},
        settings: { attempt_timeout_ms: 10_000 },
      }),
    /areas\.webhooks\.outbox/,
  ],
  ["a slice missing a field", (d) => void (d.state.areas.instant = { enabled: true }), /areas\.instant\.purchases/],
  ["a time far out of range", (d) => void (d.now = 1e300), /\bnow\b/],
  ["a fractional time", (d) => void (d.now = 1.5), /\bnow\b/],
  ["a negative counter", (d) => void (d.state.counters["control.key"] = -1), /counters\.control\.key/],
  [
    "credits that are not a safe integer",
    (d) => void (Object.values(d.state.credits)[0]!.free = 2 ** 60),
    /credits\..*\.free/,
  ],
  [
    "a key of unknown kind",
    (d) => void (Object.values(d.state.keys)[0]!.kind = "admin" as "partner"),
    /keys\..*\.kind/,
  ],
  [
    "a stored time out of range",
    (d) =>
      void Object.assign(Object.values((d.state.areas.webhooks as { webhooks: object }).webhooks)[0]!, {
        chaos_window: { ends_at: 1e300, n: 0 },
      }),
    /areas\.webhooks\.webhooks\.\d+\.chaos_window\.ends_at/,
  ],
];

describe("PUT /_emulator/state validates the whole export first", () => {
  let emu: Emulator;
  let api: Api;
  useEmulator((ctx) => ({ emu, api } = ctx));

  for (const [what, mutate, field] of BAD)
    it(`${what}: 400 invalid_state naming the field, nothing changed`, async () => {
      const partner = emu.key("demo");
      await newKey(api, { kind: "partner", label: `before ${what}` });
      // Slices in use, so the import would replace them.
      await api
        .post("/api/v1/webhooks")
        .set("X-API-Key", partner)
        .send({ url: "https://hooks.example.com/v", event_types: ["purchase.fulfilled"] })
        .expect(201);
      const before = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
      const doc = structuredClone(before) as Parameters<Mutate>[0];
      mutate(doc);
      const res = await api.put("/_emulator/state").send(doc);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_state");
      expect(res.body.message).toMatch(field);
      const after = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
      expect(after.state).toEqual(before.state);
      expect(after.now).toBe(before.now);
      // Metered calls and the webhooks area still work.
      const card = await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", partner);
      expect(card.status).toBe(200);
      expect(card.body.data.id).toBe("base1-4");
      const hooks = await api.get("/api/v1/webhooks").set("X-API-Key", partner).expect(200);
      expect(hooks.body.data.webhooks.map((w: { url: string }) => w.url)).toContain("https://hooks.example.com/v");
    });

  it("a valid export still imports", async () => {
    const doc = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
    const res = await api.put("/_emulator/state").send(doc).expect(200);
    expect(res.body.data.imported).toBe(true);
  });
});

describe("the other ways in take the same check", () => {
  it("createEmulator({state}) and a state file on start refuse a malformed export in one line", async () => {
    const a = await createEmulator({ clock: "manual" });
    const doc = a.exportState() as Parameters<Mutate>[0];
    await a.close();
    doc.state.areas.webhooks = "x";
    await expect(createEmulator({ clock: "manual", state: doc })).rejects.toThrow(/^state option: .*areas\.webhooks/);
    const file = join(mkdtempSync(join(tmpdir(), "emu-bad-")), "state.json");
    writeFileSync(file, JSON.stringify({ ...doc, now: 1e300, state: { ...doc.state, areas: {} } }));
    const start = createEmulator({ clock: "manual", stateFile: file });
    await expect(start).rejects.toBeInstanceOf(StateFileError);
    await expect(start).rejects.toThrow(
      /^state file .*state\.json: .*\bnow\b.*\. Delete the file or point stateFile elsewhere\.$/,
    );
    expect(JSON.parse(readFileSync(file, "utf8")).now).toBe(1e300); // left as it was
  });
});
