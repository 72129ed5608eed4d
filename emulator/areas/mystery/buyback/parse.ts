import type { Hex } from "viem";
import { buybackItemType } from "../../../../contract/index.ts";
import { badRequest, notFound } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { z } from "../../../pipeline/schema.ts";
import { parseUsdc, tokenIdOf, tokenIdParam } from "../util.ts";
import type { OfferPrice } from "./offers.ts";

// How the buyback routes read what contract/mystery/buyback.ts declares: into
// the area's own types, each field's coded error thrown in declaration order
// (zod ends the parse at the first throw). A token that is no token id is its
// 404; offer_price_usdc is kept as sent: the rules answer a bad one only once
// the token is known eligible.

const offerPrice = z
  .unknown()
  .optional()
  .transform((v): OfferPrice | null => (v === undefined || v === null ? null : { micros: parseUsdc(v) }));

export const createBody = z.object({
  token_id: z
    .unknown()
    .optional()
    .transform((v): string => {
      if (v === undefined || v === null || v === "") throw badRequest("token_required", "token_id is required");
      const id = tokenIdParam(v);
      if (id === null) throw notFound(`No token ${String(v)}`, "token_not_found");
      return id;
    }),
  item_type: buybackItemType,
  offer_price_usdc: offerPrice,
});

export const createForPurchaseBody = z.object({ token_id: z.unknown().optional(), offer_price_usdc: offerPrice });

const isSignature = (v: unknown): v is Hex =>
  typeof v === "string" && /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/.test(v);

export const acceptBody = z.object({
  receiver_signature: z
    .unknown()
    .optional()
    .transform((v): Hex => {
      if (!isSignature(v))
        throw badRequest(
          "invalid_receiver_signature",
          "receiver_signature must be the holder's 65-byte (or 64-byte compact) EIP-712 signature, 0x-prefixed hex",
        );
      return v;
    }),
  item_type: buybackItemType,
});

export const byTokenQuery = z.object({
  token_id: z
    .string()
    .optional()
    .transform((raw): string | null => {
      if (!raw) throw badRequest("token_required", "token_id is required");
      checkIdLength(raw, "token_id");
      // A filter: a string that is no token id matches no offer.
      return tokenIdOf(raw);
    }),
});
