import type { TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Call } from "../../harness/wallet.ts";
import { ensure, expectSuccess } from "../assert.ts";
import { NotApplicable, type CheckContext } from "../types.ts";
import { waitFor } from "../wait.ts";
import { buyAndReveal } from "./commerce.ts";

// The relayed buyback accept as a partner runs it on the sandbox: a card the test wallet revealed gets an offer at
// the card's own value (emulator mode pins the value instead), the holder signs the offer's EIP-712 OfferRequest,
// the partner posts the signature, and the offer reads accepted once the relayer's transaction is mined.

const M = "/api/v1/mystery";
const FIELDS = "tokenContractAddress,tokenId,price,acceptedCurrency,deadline,requester,chainId,minSellerAmount";
/** Why an offer cannot be made on a card now (the target's values and liquidity): the next card is tried. */
const NO_OFFER = new Set(["value_unknown", "insufficient_liquidity", "not_eligible", "price_too_high"]);

type Offer = { token_id: string; status: string; accepted_at: string | null; price_usdc: string };
type Prepared = {
  nft_approval: { call: Call | null };
  typed_data: {
    primaryType: string;
    types: Record<string, Array<{ name: string; type: string }>>;
    message: Record<string, string>;
  };
};

/** The first revealed card the target makes an offer on. */
async function offeredCard(ctx: CheckContext, tokens: string[]): Promise<Offer> {
  const refused: string[] = [];
  for (const token_id of tokens) {
    const r = await ctx.http.post(`${M}/buyback`, { key: ctx.partnerKey, body: { token_id } });
    const code = (r.body as { error?: string } | null)?.error;
    if (r.status === 409 && code && NO_OFFER.has(code)) {
      refused.push(`${token_id}: ${code}`);
      continue;
    }
    return expectSuccess(r, `POST /mystery/buyback for token ${token_id}`, 201).data as Offer;
  }
  throw new NotApplicable(`the target made no buyback offer on the revealed cards (${refused.join(", ")})`);
}

/** The sandbox run of lifecycle.mystery-relayed-accept. */
export async function relayedAcceptBySandbox(ctx: CheckContext): Promise<void> {
  ensure(ctx.wallet, "no test wallet");
  const w = ctx.wallet;
  const key = ctx.partnerKey;
  // Cards the wallet revealed before (only $10–$100 cards are bought back), else a pack bought now.
  const held = expectSuccess(
    await ctx.http.get(`${M}/purchases`, {
      key,
      query: { status: "FULFILLED", wallet_address: w.address, limit: 100 },
    }),
    "GET /mystery/purchases of the test wallet",
  ).data as { purchases: Array<{ items?: Array<{ token_id: string; item_type: string }> }> };
  const cardsOf = (ps: Array<{ items?: Array<{ token_id: string; item_type: string }> }>) =>
    ps.flatMap((p) => (p.items ?? []).filter((i) => i.item_type === "CARD").map((i) => i.token_id));
  const earlier = cardsOf(held.purchases);
  const offer = await offeredCard(ctx, earlier).catch(async (err: unknown) => {
    if (!(err instanceof NotApplicable)) throw err;
    return offeredCard(ctx, cardsOf([(await buyAndReveal(ctx, w)).purchase]));
  });
  const token = offer.token_id;
  const prep = expectSuccess(
    await ctx.http.post(`${M}/buyback/${token}/accept/prepare`, { key, body: {} }),
    "accept/prepare",
  ).data as Prepared;
  const fields = (prep.typed_data.types.OfferRequest ?? []).map((f) => f.name).join(",");
  ensure(
    prep.typed_data.primaryType === "OfferRequest",
    `primaryType OfferRequest, got ${prep.typed_data.primaryType}`,
  );
  ensure(fields === FIELDS, `OfferRequest's fields must be ${FIELDS}, got ${fields}`);
  ensure(prep.typed_data.message.tokenId === token, `the message is the offer for token ${token}`);
  if (prep.nft_approval.call) await w.send([prep.nft_approval.call]);
  const signature = await privateKeyToAccount(w.privateKey).signTypedData(
    prep.typed_data as unknown as TypedDataDefinition<Record<string, unknown>, string>,
  );
  const done = expectSuccess(
    await ctx.http.post(`${M}/buyback/${token}/accept`, { key, body: { receiver_signature: signature } }),
    "relayed accept",
  ).data as { status: string; transaction_hash: string };
  ensure(
    done.status === "submitted" && /^0x[0-9a-f]{64}$/.test(done.transaction_hash),
    `accept must answer submitted with the relayer's transaction, got ${JSON.stringify(done)}`,
  );
  const accepted = await waitFor(ctx, `the offer on token ${token} to read accepted`, async () => {
    const list = expectSuccess(
      await ctx.http.get(`${M}/buyback`, { key, query: { token_id: token } }),
      `GET /mystery/buyback?token_id=${token}`,
    ).data as { offers: Offer[] };
    return list.offers.find((o) => o.status === "accepted");
  });
  ensure(accepted?.accepted_at, `the offer on token ${token} never read accepted after the relayer's transaction`);
  ctx.note(`token ${token} bought back for ${offer.price_usdc} USDC through the relayer (${done.transaction_hash})`);
}
