import { keccak256, toHex } from "../../../chain/evm.ts";
import { encodeFunctionData } from "../../../chain/viem-late.ts";
import { cardNftAbi } from "../../../chain/index.ts";
import { defineControl, type ControlContext, type ControlSpec } from "../../control/route.ts";
import { badInput, missing } from "../../control/schemas.ts";
import { Purchase } from "../../../contract/index.ts";
import { z } from "../../pipeline/schema.ts";
import { conflict, notFound } from "../../pipeline/errors.ts";
import { ok } from "../../pipeline/route.ts";
import { withVrfTurn } from "../../pipeline/chain.ts";
import { chainOf, mysteryPoolPurchase, MYSTERY_POOL_STATUS, sendAs } from "./chain-io.ts";
import { purchaseWire, refundOnChain, settleFromChain } from "./purchases/purchases.ts";
import { mystery } from "./state.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { runWorker, serial } from "./worker.ts";

// Operator actions that make purchases go wrong the way they do on the real
// service: a reveal whose VRF callback reverts (→ refunded by the worker), an
// operator refund of a purchase still waiting for its reveal, and a shipping
// quote signer that is down (redemption prepare 503). The relayer switch is in
// control-relayer.ts.

const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));

/** The caller's purchase, read from the chain first; 409 unless it still waits for its reveal. */
async function waitingPurchase(c: ControlContext, raw: string): Promise<{ id: number; requestId: bigint }> {
  const id = intId(raw);
  const row = id === null ? undefined : mystery(c.services).purchases[id];
  if (id === null || !row) throw notFound(`No purchase ${raw}`);
  await settleFromChain(c.services, id);
  const now = mystery(c.services).purchases[id]!;
  if (now.status !== "SUBMITTED" || !now.onchain_request_id)
    throw conflict(
      "invalid_status",
      `Purchase ${id} is ${now.status}; only a SUBMITTED purchase waiting for its reveal can fail or be refunded`,
    );
  const requestId = BigInt(now.onchain_request_id);
  if ((await mysteryPoolPurchase(chainOf(c.services), requestId)).status !== MYSTERY_POOL_STATUS.REQUESTED)
    throw conflict("invalid_status", `Purchase ${id} is no longer waiting for its reveal on chain`);
  return { id, requestId };
}

const purchaseAction = (answer: z.ZodType) => ({
  params: z.object({ id: z.string() }),
  responses: {
    200: { description: "The purchase, refunded", data: answer },
    404: missing("purchase"),
    409: { description: "The purchase is not waiting for its reveal", codes: ["invalid_status"] },
  },
});

export const faultControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/mystery/purchases/:id/fail-reveal",
    describe:
      "Fulfil the purchase's VRF request so the MysteryPool's callback reverts (success=false); the worker then refunds it → REFUNDED",
    schema: purchaseAction(
      z.object({
        vrf: z.object({ request_id: z.string(), success: z.boolean(), tx_hash: z.string() }),
        purchase: Purchase,
      }),
    ),
    handle: async (c) => {
      const { id, requestId } = await waitingPurchase(c, c.input.params.id);
      const chain = chainOf(c.services);
      let result: { success: boolean; txHash: string } = { success: true, txHash: "" };
      await serial(c.services, () =>
        withVrfTurn(c.services, async () => {
          // Checked inside the worker's queue and the VRF turn: a parallel fail-reveal or fulfil may have answered it meanwhile.
          if (!(await chain.pendingVrfRequests()).includes(requestId))
            throw conflict("invalid_status", `VRF request ${requestId} of purchase ${id} is not pending`);
          // The MysteryPool cannot mint for the length of this one fulfilment, so its callback reverts.
          const role = (fn: "revokeRole" | "grantRole") =>
            sendAs(
              chain,
              chain.operator,
              chain.addresses.cardNft,
              encodeFunctionData({
                abi: cardNftAbi,
                functionName: fn,
                args: [MINTER_ROLE, chain.addresses.mysteryPool],
              }),
            );
          await role("revokeRole");
          try {
            result = await chain.fulfillVrf(requestId);
          } finally {
            await role("grantRole");
          }
        }),
      );
      await runWorker(c.services); // sees the failed reveal and refunds
      return ok({
        vrf: { request_id: String(requestId), success: result.success, tx_hash: result.txHash },
        purchase: purchaseWire(c.services, mystery(c.services).purchases[id]!),
      });
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/purchases/:id/refund",
    describe:
      "Operator refund (MysteryPool.refundPurchase) of a purchase still waiting for its reveal → REFUNDED; custodial balances are credited back",
    schema: purchaseAction(Purchase),
    handle: async (c) => {
      const { id } = await waitingPurchase(c, c.input.params.id);
      let done = false;
      await serial(c.services, async () => {
        done = await refundOnChain(c.services, id, "refunded by the operator before the reveal");
      });
      if (!done)
        throw conflict("invalid_status", `Purchase ${id} could not be refunded (revealed or refunded meanwhile)`);
      return ok(purchaseWire(c.services, mystery(c.services).purchases[id]!));
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/shipping-signer",
    describe:
      "Shipping quote signer switch {enabled: boolean}: off → redemption prepare answers 503 shipping_signer_unavailable (retryable; a replay of an opened redemption still answers)",
    schema: {
      body: z.object({ enabled: z.boolean({ error: "enabled must be true or false" }) }),
      responses: { 200: { description: "The switch now", data: z.object({ enabled: z.boolean() }) }, 400: badInput },
    },
    handle: (c) => {
      mystery(c.services).shipping_signer = c.input.body.enabled ? "on" : "off";
      return ok({ enabled: c.input.body.enabled });
    },
  }),
];
