import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { usdStablecoinAbi } from "../../chain/index.ts";
import { startEmulator, newKey, type Api, type Emulator } from "../helpers.ts";
import { encode, forgedPayment, officialPayment, requirementsOf } from "./x402.ts";
import { x402DetailsSchema } from "../../contract/index.ts";
import { expectError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let alice: Hex;
let base: string;

beforeAll(async () => {
  ({ emu, api, close } = await startEmulator({ chain: { rpcPort: 0 } }));
  alice = emu.chain!.endUsers[0]!.privateKey as Hex;
  base = await emu.snapshot();
});
beforeEach(async () => {
  await emu.restore(base);
});
afterAll(() => close());

const topup = (key: string, usd: string | number, payment?: string, header = "PAYMENT-SIGNATURE") => {
  const r = api.post(`/api/v1/credits/topup?usd=${usd}`).set("X-API-Key", key);
  return payment ? r.set(header, payment) : r;
};
const treasuryUsdc = () =>
  emu.chain!.publicClient.readContract({
    address: emu.chain!.addresses.stablecoin,
    abi: usdStablecoinAbi,
    functionName: "balanceOf",
    args: [emu.chain!.treasury.address],
  });

async function challenge(key: string, usd: string | number = 5) {
  const res = await topup(key, usd).expect(402);
  expectError(res, 402, "insufficient_credits");
  return res.headers["payment-required"] as string;
}

describe("POST /api/v1/credits/topup: the 402 challenge", () => {
  it("answers 402 with a base64 x402 v2 PaymentRequired in PAYMENT-REQUIRED and the v1 form in the body", async () => {
    const key = emu.key("demo");
    const res = await topup(key, 12.5).expect(402);
    const { required, req } = requirementsOf(res.headers["payment-required"]);
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toContain("/api/v1/credits/topup?usd=12.5");
    expect(req).toMatchObject({
      scheme: "exact",
      network: `eip155:${emu.chain!.chainId}`,
      amount: "12500000",
      asset: emu.chain!.addresses.stablecoin,
      payTo: emu.chain!.treasury.address,
      maxTimeoutSeconds: 300,
      extra: { name: "USD Coin", version: "2" },
    });
    expect(res.body).toMatchObject({
      success: false,
      error: "insufficient_credits",
      details: { x402_error: "payment_required" },
      x402Version: 1,
    });
    expect(res.body.accepts[0]).toMatchObject({
      scheme: "exact",
      maxAmountRequired: "12500000",
      payTo: req.payTo,
      asset: req.asset,
    });
    expect(res.body.details.payment_required.accepts[0]).toEqual(req);
    // The route schema declares this 402's details (thrown errors are not checked by the pipeline).
    expect(x402DetailsSchema.safeParse(res.body.details).error?.issues ?? []).toEqual([]);
  });

  it.each(["", "4.99", "1000.01", "abc", "5.001", "-5", "1e3", " "])(
    "usd=%j → 400 invalid_amount naming the query field",
    async (usd) => {
      const res = await topup(emu.key("demo"), usd).expect(400);
      expectError(res, 400, "invalid_amount");
      expect(res.body.details).toEqual({ field: "usd", part: "query" });
      expect(res.body.message).toMatch(
        /^usd: must be a number of dollars from 5 to 1000 with at most 2 decimals, got /,
      );
    },
  );

  it("no usd at all → 400 invalid_amount (required)", async () => {
    const res = await api.post("/api/v1/credits/topup").set("X-API-Key", emu.key("demo"));
    expectError(res, 400, "invalid_amount");
    expect(res.body.message).toBe("usd: is required: a number of dollars from 5 to 1000 with at most 2 decimals");
  });

  it("surrounding spaces and 2 decimals are accepted; the challenge asks for the exact atomic amount", async () => {
    const res = await topup(emu.key("demo"), "%2012.34%20").expect(402);
    expect(res.body.error).toBe("insufficient_credits");
    expect(requirementsOf(res.headers["payment-required"]).req.amount).toBe("12340000");
  });

  it("accepts the bounds 5 and 1000", async () => {
    expectError(await topup(emu.key("demo"), 5), 402, "insufficient_credits");
    expectError(await topup(emu.key("demo"), 1000), 402, "insufficient_credits");
  });

  it("is for metered partner keys: tenant and legacy keys get 403", async () => {
    expectError(await topup(emu.key("tenant"), 5), 403, "Insufficient permissions");
    expectError(await topup(emu.key("legacy"), 5), 403, "Insufficient permissions");
    expectError(await topup(emu.key("catalog-only"), 5), 402, "insufficient_credits");
  });
});

describe("paying the challenge", () => {
  it("settles on the chain with the official client and grants 500 credits per USD to the purchased pool", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    const before = await treasuryUsdc();
    const payment = encode(await officialPayment(await challenge(key, 5), alice));
    const res = await topup(key, 5, payment).expect(200);
    expect(res.body.data).toEqual({
      credits_granted: 2500,
      balance_credits: 3000,
      usd: 5,
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(res.headers["x-credits-remaining"]).toBe("3000");
    const settled = decodePaymentResponseHeader(res.headers["payment-response"]);
    expect(settled).toMatchObject({
      success: true,
      transaction: res.body.data.tx_hash,
      network: `eip155:${emu.chain!.chainId}`,
    });
    expect(res.headers["x-payment-response"]).toBe(res.headers["payment-response"]);
    expect(await treasuryUsdc()).toBe(before + 5_000_000n);
    const receipt = await emu.chain!.publicClient.getTransactionReceipt({ hash: res.body.data.tx_hash });
    expect(receipt.status).toBe("success");
    const acct = (await api.get(`/_emulator/credits/${key}`).expect(200)).body.data;
    expect(acct).toMatchObject({ free_credits: 500, purchased_credits: 2500 });
  });

  it("is idempotent: replaying the same payment returns the original result and grants nothing", async () => {
    const key = emu.key("demo");
    const payment = encode(await officialPayment(await challenge(key, 7), alice));
    const first = await topup(key, 7, payment).expect(200);
    const treasury = await treasuryUsdc();
    const again = await topup(key, 7, payment).expect(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers["x-credits-remaining"]).toBe(String(500 + 3500));
    expect(await treasuryUsdc()).toBe(treasury);
    const list = (await api.get(`/_emulator/topups?key=${key}`).expect(200)).body.data.topups;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ tx_hash: first.body.data.tx_hash, credits_granted: 3500, usd: 7 });
  });

  it("accepts the v1 header X-PAYMENT, with a v2 payload or a v1 one", async () => {
    const key = emu.key("demo");
    const v2 = await officialPayment(await challenge(key), alice);
    await topup(key, 5, encode(v2), "X-PAYMENT").expect(200);
    const p = await officialPayment(await challenge(key), alice);
    const v1 = { x402Version: 1, scheme: "exact", network: p.accepted.network, payload: p.payload };
    const res = await topup(key, 5, Buffer.from(JSON.stringify(v1)).toString("base64"), "X-PAYMENT").expect(200);
    expect(res.body.data.balance_credits).toBe(500 + 2 * 2500);
  });

  it("works after the clock advanced a month (block time follows the virtual clock); free credits reset", async () => {
    const key = emu.key("demo");
    await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", key).expect(200);
    await emu.clock.advance(31 * 24 * 3600_000);
    const res = await topup(key, 5, encode(await officialPayment(await challenge(key), alice))).expect(200);
    expect(res.body.data.balance_credits).toBe(500 + 2500);
    const block = await emu.chain!.publicClient.getTransactionReceipt({ hash: res.body.data.tx_hash });
    const mined = await emu.chain!.publicClient.getBlock({ blockNumber: block.blockNumber });
    expect(Number(mined.timestamp)).toBe(Math.floor(emu.clock.now() / 1000));
  });
});

describe("bad payments → 402 naming the x402 reason, no credits", () => {
  const cases: Array<[string, string, (h: string, emu: Emulator) => Promise<unknown>]> = [
    [
      "bad signature",
      "invalid_exact_evm_signature",
      (h, e) => forgedPayment(h, alice, { signerKey: e.chain!.endUsers[1]!.privateKey as Hex }),
    ],
    [
      "wrong amount",
      "invalid_exact_evm_payload_authorization_value_mismatch",
      (h) => forgedPayment(h, alice, { value: 4_000_000n }),
    ],
    [
      "wrong payTo",
      "invalid_exact_evm_recipient_mismatch",
      (h, e) => forgedPayment(h, alice, { to: e.chain!.endUsers[1]!.address as Hex }),
    ],
    [
      "wrong asset (signed for another token)",
      "invalid_exact_evm_signature",
      (h, e) => forgedPayment(h, alice, { verifyingContract: e.chain!.addresses.cardNft }),
    ],
    [
      "expired window",
      "invalid_exact_evm_payload_authorization_valid_before",
      (h) => forgedPayment(h, alice, { validBefore: BigInt(Math.floor(Date.now() / 1000) - 60) }),
    ],
    [
      "not yet valid",
      "invalid_exact_evm_payload_authorization_valid_after",
      (h) => forgedPayment(h, alice, { validAfter: BigInt(Math.floor(Date.now() / 1000) + 3600) }),
    ],
    [
      "insufficient funds",
      "invalid_exact_evm_insufficient_balance",
      (h, e) => forgedPayment(h, e.chain!.spareAccounts[0]!.privateKey as Hex),
    ],
    [
      "tampered accepted requirements (asset)",
      "no_matching_payment_requirements",
      async (h, e) => {
        const p = await officialPayment(h, alice);
        return { ...p, accepted: { ...p.accepted, asset: e.chain!.addresses.cardNft } };
      },
    ],
    [
      "tampered accepted requirements (amount)",
      "no_matching_payment_requirements",
      async (h) => {
        const p = await officialPayment(h, alice);
        return { ...p, accepted: { ...p.accepted, amount: "1" } };
      },
    ],
  ];

  it.each(cases)("%s → %s", async (_what, reason, make) => {
    const key = emu.key("demo");
    const header = await challenge(key);
    const treasury = await treasuryUsdc();
    const payment = Buffer.from(JSON.stringify(await make(header, emu))).toString("base64");
    const res = await topup(key, 5, payment).expect(402);
    expect(res.body.error).toBe("insufficient_credits");
    expect(res.body.details.x402_error).toBe("payment_invalid");
    expect(res.body.details.reason).toBe(reason);
    expect(x402DetailsSchema.safeParse(res.body.details).error?.issues ?? []).toEqual([]);
    expect(requirementsOf(res.headers["payment-required"]).required.error).toBe(reason);
    expect(await treasuryUsdc()).toBe(treasury);
    expect((await api.get(`/_emulator/credits/${key}`)).body.data.balance).toBe(500);
  });

  it("a reused nonce (the same authorization from another key) → nonce already used", async () => {
    const payment = encode(await officialPayment(await challenge(emu.key("demo")), alice));
    await topup(emu.key("demo"), 5, payment).expect(200);
    const res = await topup(emu.key("revenue-share"), 5, payment).expect(402);
    expectError(res, 402, "insufficient_credits");
    expect(res.body.details.reason).toBe("invalid_exact_evm_nonce_already_used");
    expect((await api.get(`/_emulator/credits/${emu.key("revenue-share")}`)).body.data.balance).toBe(500);
  });

  it("an undecodable header → invalid_payload", async () => {
    const res = await topup(emu.key("demo"), 5, "not base64 json!").expect(402);
    expectError(res, 402, "insufficient_credits");
    expect(res.body.details.reason).toBe("invalid_payload");
  });
});

describe("without the chain", () => {
  it("answers 503 chain_unavailable (amount still validated first)", async () => {
    const { api: plain, close: stop, emu: e } = await startEmulator();
    try {
      expectError(
        await plain.post("/api/v1/credits/topup?usd=1").set("X-API-Key", e.key("demo")),
        400,
        "invalid_amount",
      );
      const res = await plain.post("/api/v1/credits/topup?usd=5").set("X-API-Key", e.key("demo")).expect(503);
      expect(res.body.error).toBe("chain_unavailable");
    } finally {
      await stop();
    }
  });
});
