import { beforeEach, describe, expect, it } from "vitest";
import { useEmulator, type Api, type Emulator } from "../helpers.ts";
import { mystery } from "../../emulator/areas/mystery/state.ts";
import { instant } from "../../emulator/areas/instant/state.ts";
import { instantRow, purchaseRow } from "./rows.ts";

// The partner facts are seeded into the areas' slices (emulator/areas/*/seed.ts) and read from there at every
// answer (docs/decisions.md "Areas seed their partner facts"): a slug or KYC default changed in the state shows
// in the next answer, so no formatter or rule can be reading the fixtures instead. Rows are written into the
// store directly: what is tested is how they are answered, not how they are bought (no chain needed).

describe("partner facts are read from the seeded slice, never the fixtures", () => {
  let emu: Emulator;
  let api: Api;
  useEmulator((ctx) => ({ emu, api } = ctx));
  let key: string;

  const answers = async () => {
    const get = async (path: string) => {
      const res = await api.get(path).set("x-api-key", key);
      expect(res.status, path).toBe(200);
      return res.body.data;
    };
    return {
      memo: (await get("/api/v1/mystery/purchase/5001")).memo as string,
      listed: ((await get("/api/v1/mystery/purchases")).purchases as { memo: string }[]).map((p) => p.memo),
      partner_slug: (await get("/api/v1/mystery/stats")).partner_slug as string,
      instant: (await get("/api/v1/instant/purchase/7001")).memo as string,
    };
  };

  beforeEach(async () => {
    await api.post("/_emulator/reset").expect(200);
    key = emu.key("demo");
    mystery(emu.services).purchases["5001"] = purchaseRow(5001);
    instant(emu.services).purchases["7001"] = instantRow(7001);
  });

  it("a seeded slug changed in the state is the next answers' memo and partner_slug", async () => {
    expect(await answers()).toEqual({
      memo: "acme-5001",
      listed: ["acme-5001"],
      partner_slug: "acme",
      instant: "acme-instant-7001",
    });
    mystery(emu.services).partners.acme!.slug = "acme-shop";
    instant(emu.services).partners.acme!.slug = "acme-instant-shop";
    expect(await answers()).toEqual({
      memo: "acme-shop-5001",
      listed: ["acme-shop-5001"],
      partner_slug: "acme-shop",
      instant: "acme-instant-shop-instant-7001",
    });
  });

  it("the seeded KYC default is the one the overview reports, and an operator's switch still wins", async () => {
    const kyc = async () => (await api.get("/_emulator/mystery").expect(200)).body.data.kyc_required;
    expect(await kyc()).toEqual({ acme: false, nova: false, pixel: false, vesta: true });
    mystery(emu.services).partners.acme!.kyc_required = true;
    mystery(emu.services).partners.vesta!.kyc_required = false;
    expect(await kyc()).toEqual({ acme: true, nova: false, pixel: false, vesta: false });
    await api.post("/_emulator/mystery/kyc").send({ account_id: "acme", required: false }).expect(200);
    expect((await kyc()).acme).toBe(false);
  });

  it("the seeded facts belong to the state: a snapshot keeps them, a reset seeds them afresh", async () => {
    mystery(emu.services).partners.acme!.slug = "acme-shop";
    const snap = (await api.post("/_emulator/snapshot").expect(201)).body.data.id as string;
    await api.post("/_emulator/reset").expect(200);
    mystery(emu.services).purchases["5001"] = purchaseRow(5001);
    instant(emu.services).purchases["7001"] = instantRow(7001);
    expect((await answers()).memo).toBe("acme-5001");
    await api.post("/_emulator/restore").send({ id: snap }).expect(200);
    expect((await answers()).memo).toBe("acme-shop-5001");
    expect(emu.exportState().state.areas).toMatchObject({
      mystery: { partners: { acme: { slug: "acme-shop" } } },
      instant: { partners: { acme: { slug: "acme" } } },
    });
  });
});
