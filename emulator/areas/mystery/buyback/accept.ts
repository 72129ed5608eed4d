import type { Hex } from "viem";
import { decodeErrorResult, encodeFunctionData, recoverTypedDataAddress, viem } from "../../../../chain/viem-late.ts";
import {
  BURN_TYPE_LABELS,
  buybackMarketplaceAbi,
  cardNftAbi,
  offerRequestTypes,
  type Chain,
} from "../../../../chain/index.ts";
import type { BuybackAcceptPrepareResult, BuybackAcceptResult, BuybackItemType } from "../../../../contract/index.ts";
import { ApiError, badRequest, conflict } from "../../../pipeline/errors.ts";
import { stateFence } from "../../../pipeline/generation.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { Services } from "../../../pipeline/services.ts";
import {
  acceptOfferCall,
  approveMarketplaceCall,
  deadlineIso,
  domainOf,
  offerItemType,
  offerMessage,
  offerTypedDataWire,
} from "./offers.ts";
import { watchOffers } from "./forwarding.ts";
import { burnState, chainOf, nftApproved, ownerOf, sendAs, simulateAcceptOffer } from "../chain-io.ts";
import { relayerDisabled, relayerOn } from "../purchases/relay.ts";
import { mystery, type OfferRow } from "../state.ts";
import { tokenIdText } from "../../../../contract/index.ts";
import { tokenLockKey } from "../locks.ts";
import { usdc } from "../../../../contract/money.ts";

// Relayed buyback accept (docs/reference/live-service.md “Buyback offers and the pool wallet”, SDK 0.1.2): accept/prepare hands
// the holder the offer's EIP-712 OfferRequest typed data (the marketplace's
// domain; primaryType OfferRequest; message tokenContractAddress, tokenId,
// price, acceptedCurrency, deadline, requester, chainId, minSellerAmount), the
// holder signs it with eth_signTypedData_v4, and the service's relayer calls
// BuybackMarketplace.acceptOfferFor, paying the gas; the contract checks the
// holder's signature over the same digest. buyback.confirmed follows from the
// chain exactly as for a self-submitted acceptOffer.

const noActiveOffer = (raw: string) =>
  new ApiError(
    404,
    "no_active_offer",
    `No active buyback offer for token ${raw}; create one with POST /mystery/buyback`,
  );

/** The caller's active offer for the token in the path, of `itemType` when named (acceptances on chain are read first). */
async function activeOffer(
  s: Services,
  acct: string,
  raw: string,
  itemType: BuybackItemType | null,
): Promise<OfferRow> {
  const tokenId = tokenIdText(raw);
  const none = () => noActiveOffer(raw);
  if (tokenId === null) throw none();
  await watchOffers(s);
  const nowS = Math.floor(s.clock.now() / 1000);
  const offer = Object.values(mystery(s).offers).find(
    (o) =>
      o.account_id === acct &&
      o.token_id === tokenId &&
      o.status === "active" &&
      o.deadline >= nowS &&
      (itemType === null || o.item_type === itemType),
  );
  if (!offer) throw none();
  return offer;
}

async function approvalOf(chain: Chain, receiver: `0x${string}` | null, tokenId: bigint) {
  const market = chain.addresses.marketplace;
  const holderOwns = receiver !== null && receiver.toLowerCase() !== chain.poolSigner.address.toLowerCase();
  let approved = false;
  if (receiver) {
    approved = await nftApproved(chain, receiver, market, tokenId);
  }
  return {
    approved,
    holder_owns_token: holderOwns,
    // setApprovalForAll cannot be relayed: the holder sends it once.
    call: approved
      ? null
      : approveMarketplaceCall(chain, "One-time, sent by the holder: let the marketplace move the holder's cards"),
  };
}

/** The OfferRequest the holder signs for a relayed accept (the same digest the requester signed). */
function offerTypedData(chain: Chain, o: OfferRow) {
  return {
    domain: domainOf(chain),
    types: offerRequestTypes,
    primaryType: "OfferRequest" as const,
    message: offerMessage(chain, o),
  };
}

/** The revert's error name (OfferExpired, TokenFrozen, …) or the node's short message. */
function revertReason(err: unknown): string {
  // viem's error classes, as the chain that raised the error loaded them (chain/viem-late.ts).
  const { BaseError, ContractFunctionRevertedError } = viem();
  if (err instanceof BaseError) {
    const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      if (reverted.data?.errorName) return reverted.data.errorName;
      // Errors raised inside the NFT (TokenFrozen, …) are not in the marketplace's ABI.
      if (reverted.raw)
        try {
          return decodeErrorResult({ abi: cardNftAbi, data: reverted.raw }).errorName;
        } catch {
          /* not a CardNFT error either */
        }
      return reverted.signature ?? reverted.shortMessage;
    }
    return err.shortMessage;
  }
  return String(err);
}

/** What the holder needs to accept the account's active offer for the token: the relayed way and the self-submitted one. */
export async function prepareAccept(
  s: Services,
  acct: string,
  rawToken: string,
  itemType: BuybackItemType | null,
): Promise<BuybackAcceptPrepareResult> {
  const o = await activeOffer(s, acct, rawToken, itemType);
  const chain = chainOf(s);
  const tokenId = BigInt(o.token_id);
  const receiver = await ownerOf(chain, tokenId);
  // A token without a holder was burned: its offer can never be accepted (the watcher cancels it).
  if (!receiver) throw noActiveOffer(rawToken);
  const burn = await burnState(chain, tokenId);
  const price = BigInt(o.price_micros);
  const fee = BigInt(o.fee_micros);
  return {
    offer_id: o.offer_id,
    token_id: o.token_id,
    item_type: offerItemType(o),
    receiver,
    requester: chain.poolSigner.address,
    deadline: deadlineIso(o),
    price_usdc: usdc(price),
    seller_receives_usdc: usdc(price - fee),
    marketplace_fee_usdc: usdc(fee),
    nft_approval: await approvalOf(chain, receiver, tokenId),
    // The pending burn by name; only the operator can lift one on this chain (the redemption or grading ends it).
    transfer_frozen: {
      frozen: burn.pending,
      burn_type: burn.pending ? (BURN_TYPE_LABELS[burn.burnType] ?? String(burn.burnType)) : null,
      cancel_call: null,
    },
    self_submit: {
      call: acceptOfferCall(chain, o, "The holder accepts directly (pays gas) instead of the relayed accept"),
    },
    // What the holder signs for the relayed accept: the offer's OfferRequest, wire-encoded.
    typed_data: offerTypedDataWire(chain, o),
    note: "Relayed accept: the holder approves the marketplace once (nft_approval.call), signs typed_data, and POSTs the signature as receiver_signature to /mystery/buyback/{token}/accept; or sends self_submit.call itself.",
  };
}

/**
 * The relayer sends acceptOfferFor with the holder's OfferRequest signature. One relayed
 * acceptance at a time per (partner, token): a parallel second call then finds the offer used
 * on chain (404 no_active_offer) instead of sending again.
 */
export function relayAccept(
  s: Services,
  acct: string,
  rawToken: string,
  sig: Hex,
  itemType: BuybackItemType | null,
): Promise<BuybackAcceptResult> {
  const token = tokenIdText(rawToken);
  return withKeyLock(s, tokenLockKey("offer", acct, token ?? String(rawToken)), async () => {
    const sameState = stateFence(s);
    const o = await activeOffer(s, acct, rawToken, itemType);
    const chain = chainOf(s);
    const tokenId = BigInt(o.token_id);
    const receiver = await ownerOf(chain, tokenId);
    if (!receiver)
      throw conflict("accept_simulation_failed", `Token ${o.token_id} has no holder (burned)`, {
        details: { reason: "no_holder" },
      });
    let signer: `0x${string}`;
    try {
      signer = await recoverTypedDataAddress({ ...offerTypedData(chain, o), signature: sig });
    } catch {
      throw badRequest("invalid_receiver_signature", "receiver_signature is not a valid ECDSA signature");
    }
    if (signer.toLowerCase() !== receiver.toLowerCase())
      throw conflict(
        "receiver_signature_mismatch",
        `receiver_signature was signed by ${signer}, not by the token's holder ${receiver} (sign the OfferRequest typed_data of accept/prepare with the holder's wallet)`,
        {
          details: { receiver, recovered: signer },
        },
      );
    const approval = await approvalOf(chain, receiver, tokenId);
    if (!approval.approved)
      throw conflict(
        "nft_approval_missing",
        "The holder has not approved the marketplace for this card; send nft_approval.call first (it cannot be relayed)",
        { details: { nft_approval: approval } },
      );
    if (!relayerOn(s))
      throw relayerDisabled("the holder can accept directly with self_submit.call from accept/prepare, or retry later");
    const args = [offerMessage(chain, o), o.offer_signature as Hex, receiver, sig] as const;
    try {
      await simulateAcceptOffer(chain, args);
    } catch (err) {
      const reason = revertReason(err);
      throw conflict("accept_simulation_failed", `acceptOfferFor would revert: ${reason}`, { details: { reason } });
    }
    const receipt = await sendAs(
      chain,
      chain.relayer,
      chain.addresses.marketplace,
      encodeFunctionData({ abi: buybackMarketplaceAbi, functionName: "acceptOfferFor", args }),
    );
    // The relayer's transaction went to the chain a reset or restore replaced: its answer is not this state's.
    sameState();
    if (receipt.status !== "success")
      throw conflict("accept_simulation_failed", "acceptOfferFor reverted when mined", {
        details: { reason: "reverted", transaction_hash: receipt.transactionHash },
      });
    const price = BigInt(o.price_micros);
    return {
      offer_id: o.offer_id,
      token_id: o.token_id,
      transaction_hash: receipt.transactionHash,
      receiver,
      requester: chain.poolSigner.address,
      price_usdc: usdc(price),
      seller_receives_usdc: usdc(price - BigInt(o.fee_micros)),
      status: "submitted",
      note: "The relayer submitted acceptOfferFor; buyback.confirmed follows once the acceptance is read from the chain, then the card is forwarded to the pool wallet.",
    };
  });
}
