import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { mystery } from "../../emulator/areas/mystery/state.ts";
import { instant } from "../../emulator/areas/instant/state.ts";
import { upgradeSlices, type SliceSpec } from "../../emulator/state/slices.ts";
import { instantRow, purchaseRow } from "../mystery/rows.ts";

// A state file saved before the areas seeded their partner facts (docs/decisions.md "Areas seed their partner
// facts"): its mystery and instant slices have no `partners`. On import each slice's `upgrade` fills them from the
// fixtures, as that version read them at every request, so the file loads and answers as it did.

type Areas = Record<string, Record<string, unknown>>;

describe("a state file without the seeded partner facts", () => {
  it("loads, answers the fixtures' slugs and KYC defaults, and is saved with the facts filled in", async () => {
    const a = await createEmulator({ seed: 3, clock: "manual" });
    mystery(a.services).purchases["5001"] = purchaseRow(5001);
    instant(a.services).purchases["7001"] = instantRow(7001);
    const exported = a.exportState();
    await a.close();
    const areas = exported.state.areas as Areas;
    const seeded = { mystery: areas.mystery!.partners, instant: areas.instant!.partners };
    expect(seeded.mystery).toMatchObject({ acme: { slug: "acme" }, vesta: { slug: "vesta", kyc_required: true } });
    // The old shape: what an emulator before the seed step wrote.
    delete areas.mystery!.partners;
    delete areas.instant!.partners;
    const file = join(mkdtempSync(join(tmpdir(), "partner-facts-")), "state.json");
    writeFileSync(file, JSON.stringify(exported));

    const b = await createEmulator({ clock: "manual", stateFile: file, port: 0 });
    try {
      const api = request(b.url);
      const key = b.key("demo");
      const get = async (path: string) => (await api.get(path).set("x-api-key", key).expect(200)).body.data;
      expect((await get("/api/v1/mystery/purchase/5001")).memo).toBe("acme-5001");
      expect((await get("/api/v1/mystery/purchases")).purchases.map((p: { memo: string }) => p.memo)).toEqual([
        "acme-5001",
      ]);
      expect((await get("/api/v1/mystery/stats")).partner_slug).toBe("acme");
      expect((await get("/api/v1/instant/purchase/7001")).memo).toBe("acme-instant-7001");
      expect((await api.get("/_emulator/mystery").expect(200)).body.data.kyc_required).toEqual({
        acme: false,
        nova: false,
        pixel: false,
        vesta: true,
      });
      const now = b.exportState().state.areas as Areas;
      expect({ mystery: now.mystery!.partners, instant: now.instant!.partners }).toEqual(seeded);
    } finally {
      await b.close();
    }
    // Written through on start: the file holds the facts now.
    const saved = JSON.parse(readFileSync(file, "utf8")).state.areas as Areas;
    expect({ mystery: saved.mystery!.partners, instant: saved.instant!.partners }).toEqual(seeded);
  });

  it("an import through the control plane fills them too; facts a file holds are kept as they are", async () => {
    const emu = await createEmulator({ seed: 3, clock: "manual", port: 0 });
    try {
      const api = request(emu.url);
      mystery(emu.services).partners.acme!.slug = "acme-shop";
      mystery(emu.services).purchases["5001"] = purchaseRow(5001);
      const doc = emu.exportState();
      const old = structuredClone(doc);
      delete (old.state.areas as Areas).mystery!.partners;
      await api.put("/_emulator/state").send(old).expect(200);
      const memo = async () =>
        (await api.get("/api/v1/mystery/purchase/5001").set("x-api-key", emu.key("demo")).expect(200)).body.data.memo;
      expect(await memo()).toBe("acme-5001");
      await api.put("/_emulator/state").send(doc).expect(200);
      expect(await memo()).toBe("acme-shop-5001");
    } finally {
      await emu.close();
    }
  });
});

describe("upgradeSlices", () => {
  const spec = (name: string, upgrade: SliceSpec["upgrade"]): SliceSpec => ({
    name,
    init: () => ({}),
    schema: undefined as never,
    upgrade,
  });
  const seen: unknown[] = [];
  const slices = [spec("a", (s) => void (s.filled = true)), spec("b", (s) => void seen.push(s))];

  it("runs each slice's upgrade on its own object entry only, leaving other shapes to the import check", () => {
    const areas = JSON.parse('{"a":{"x":1},"b":[1],"c":{},"__proto__":{"y":2}}');
    upgradeSlices(areas, slices);
    expect(areas.a).toEqual({ x: 1, filled: true });
    expect(areas.b).toEqual([1]);
    expect(seen).toEqual([]);
    upgradeSlices(null, slices);
    upgradeSlices({ b: null }, slices);
    expect(seen).toEqual([]);
    expect(({} as Record<string, unknown>).filled).toBeUndefined();
  });
});
