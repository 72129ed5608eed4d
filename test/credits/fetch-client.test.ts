import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";
import { requirementsOf } from "./x402.ts";
import { expectError } from "../../conformance/assert.ts";

// A partner's point of view: the official @x402/fetch client and a fixture wallet pay the
// 402 against the emulator listening on a port, with the chain reached over JSON-RPC. The
// virtual clock starts at wall time here, so advancing it puts block time AHEAD of the
// wall clock the client signs with: the case the maxTimeoutSeconds stretch exists for.

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ emu, api, close } = await startEmulator({ chain: { rpcPort: 0 }, startTime: Date.now() }));
});
afterAll(() => close());

function partnerFetch() {
  const chain = emu.chain!;
  const wallet = privateKeyToAccount(chain.endUsers[0]!.privateKey as Hex);
  const rpc = createPublicClient({ transport: http(emu.rpcUrl!) });
  const network = `eip155:${chain.chainId}` as const;
  const client = new x402Client()
    .register(network, new ExactEvmScheme(toClientEvmSigner(wallet, rpc)))
    // Spend controls refuse assets the x402 tables do not know; allow the emulator's stablecoin.
    .setSpendControls({ allowedAssets: [{ network, asset: chain.addresses.stablecoin }] });
  return wrapFetchWithPayment(fetch, client);
}

describe("paying with the official @x402/fetch client", () => {
  it("pays the 402 transparently and gets the top-up result", async () => {
    const key = emu.key("demo");
    const pay = partnerFetch();
    const res = await pay(`${emu.url}/api/v1/credits/topup?usd=10`, { method: "POST", headers: { "X-API-Key": key } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { credits_granted: number; balance_credits: number; usd: number; tx_hash: string };
    };
    expect(body.data).toMatchObject({ credits_granted: 5000, balance_credits: 5500, usd: 10 });
    const settled = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!);
    expect(settled.success).toBe(true);
    expect(settled.transaction).toBe(body.data.tx_hash);
  });

  it("still pays after the virtual clock moved a month ahead of wall time", async () => {
    const key = emu.key("demo");
    await emu.clock.advance(31 * 24 * 3600_000);
    const challenge = await api.post("/api/v1/credits/topup?usd=5").set("X-API-Key", key).expect(402);
    expectError(challenge, 402, "insufficient_credits");
    const { req } = requirementsOf(challenge.headers["payment-required"]);
    // Stretched by the skew (rounded up to an hour) so a wall-clock signature holds at block time.
    expect(req.maxTimeoutSeconds).toBeGreaterThanOrEqual(300 + 31 * 24 * 3600);
    expect(req.maxTimeoutSeconds).toBeLessThanOrEqual(300 + 31 * 24 * 3600 + 2 * 3600);
    const res = await partnerFetch()(`${emu.url}/api/v1/credits/topup?usd=5`, {
      method: "POST",
      headers: { "X-API-Key": key },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { data: { balance_credits: number; tx_hash: Hex } };
    // The free pool reset to 500 with the new month; purchased credits never expire.
    expect(body.data.balance_credits).toBe(500 + 5000 + 2500);
    const receipt = await emu.chain!.publicClient.getTransactionReceipt({ hash: body.data.tx_hash });
    const block = await emu.chain!.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(Number(block.timestamp)).toBe(Math.floor(emu.clock.now() / 1000));
  });

  it("an authorization signed with the unstretched timeout is refused with the valid_before reason", async () => {
    const key = emu.key("demo");
    const { forgedPayment, encode } = await import("./x402.ts");
    const challenge = await api.post("/api/v1/credits/topup?usd=5").set("X-API-Key", key).expect(402);
    expectError(challenge, 402, "insufficient_credits");
    const payment = await forgedPayment(
      challenge.headers["payment-required"],
      emu.chain!.endUsers[0]!.privateKey as Hex,
      {
        validBefore: BigInt(Math.floor(Date.now() / 1000) + 300),
      },
    );
    const res = await api
      .post("/api/v1/credits/topup?usd=5")
      .set("X-API-Key", key)
      .set("PAYMENT-SIGNATURE", encode(payment))
      .expect(402);
    expectError(res, 402, "insufficient_credits");
    expect(res.body.details.reason).toBe("invalid_exact_evm_payload_authorization_valid_before");
  });
});
