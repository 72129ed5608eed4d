import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupCards } from "../../emulator/areas/mystery/shop/items.ts";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";
import { sdkFor, waitForReveal } from "../sdk.ts";

// A world file's `reveals:` queue (docs/steering.md): the steers are queued when the world is applied, the
// next matching purchases take them in order, and a reset brings the queue back with the rest of the world.

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let card: string;

beforeAll(async () => {
  // Any card of the Rare group (tier 1's card slot draws it with weight 900 of 10 000).
  const probe = await startEmulator();
  card = groupCards(probe.emu.services.catalog, 3).at(-1)!.card.id;
  await probe.close();
  const world = {
    version: 1,
    accounts: [
      {
        id: "my-shop",
        billing_model: "POOL",
        keys: [{ name: "shop" }],
        custodial_users: [{ external_user_id: "alice", usdc: "100" }],
      },
    ],
    reveals: [
      { tier_id: 1, account: "my-shop", items: [card] },
      { tier_id: 1, account: "my-shop", band: { min_usd: "2", max_usd: "3" } },
    ],
  };
  ({ emu, api, close } = await startEmulator({ chain: { rpcPort: false, vrf: "auto" }, world }));
});
afterAll(() => close());

const pending = async () => (await api.get("/_emulator/mystery/reveals").expect(200)).body.data.pending as unknown[];

describe("world reveals", () => {
  it("the queue yields the named card, then an item in the band, and comes back on reset", async () => {
    expect(await pending()).toHaveLength(2);
    const sdk = sdkFor(emu, emu.key("shop"));
    const first = await sdk.gacha.purchase({ tier_id: 1, external_user_id: "alice" });
    const a = (await waitForReveal(sdk, first.id)).value.items as unknown as Array<{ card_id: string }>;
    expect(a[0]!.card_id).toBe(card);
    const second = await sdk.gacha.purchase({ tier_id: 1, external_user_id: "alice" });
    const b = (await waitForReveal(sdk, second.id)).value.items as unknown as Array<{ value_usd: string }>;
    expect(Number(b[0]!.value_usd)).toBeGreaterThanOrEqual(2);
    expect(Number(b[0]!.value_usd)).toBeLessThanOrEqual(3);
    expect(await pending()).toHaveLength(0);

    await api.post("/_emulator/reset").expect(200);
    expect(await pending()).toHaveLength(2);
  });
});
