import { getAddress, isAddress } from "../../../chain/evm.ts";
import { INSTANT } from "../../../contract/index.ts";
import { parseUsdc } from "../../../contract/money.ts";
import { withCode, z } from "../../pipeline/schema.ts";

// The instant bodies as the emulator reads them (contract/instant.ts documents
// them): the wallet is checksum-checked and normalised with viem, the price
// cap becomes bigint micros through contract/money.ts.

const wallet = withCode(
  z
    .string({ error: "is required: the user's own 0x wallet (it signs, pays and receives)" })
    .refine(
      (v) => isAddress(v, { strict: true }),
      "must be a 0x-prefixed 20-byte EVM address (EIP-55 checksum when mixed-case)",
    )
    .transform((v) => getAddress(v)),
  "invalid_wallet_address",
);
const maxPrice = withCode(
  z
    .union([z.string(), z.number()])
    .refine(
      (v) => parseUsdc(v) !== null,
      'must be a non-negative decimal USDC amount with at most 6 places, such as "25.00"',
    )
    .transform((v) => parseUsdc(v)!)
    .nullish()
    .transform((v) => v ?? null),
  "invalid_amount",
);

export const prepareBody = INSTANT.prepare.schema.body.extend({ wallet_address: wallet, max_price_usdc: maxPrice });
export const submitBody = INSTANT.submit.schema.body.extend({ wallet_address: wallet.nullish() });
