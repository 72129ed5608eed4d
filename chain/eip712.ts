// The EIP-712 typed-data tables and domains the contracts verify (declarative data; see docs/chain.md).

/** EIP-712 types of the stablecoin's EIP-3009 `transferWithAuthorization` (domain "USD Coin", version "2"). */
export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** EIP-712 types of the BuybackMarketplace's signed offer (docs/reference/sdk-shapes.md “Buyback shapes”: `OfferRequest`). */
export const offerRequestTypes = {
  OfferRequest: [
    { name: "tokenContractAddress", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "acceptedCurrency", type: "address" },
    { name: "deadline", type: "uint256" },
    { name: "requester", type: "address" },
    { name: "chainId", type: "uint256" },
    { name: "minSellerAmount", type: "uint256" },
  ],
} as const;

/** The BuybackMarketplace's EIP-712 domain on a chain. */
export const marketplaceDomain = (chain: { chainId: number; addresses: { marketplace: `0x${string}` } }) =>
  ({
    name: "BuybackMarketplace",
    version: "1",
    chainId: chain.chainId,
    verifyingContract: chain.addresses.marketplace,
  }) as const;

/** EIP-712 types of the ShippingPaymentProcessor's `ShippingQuote` (signed by the shipping signer). */
export const shippingQuoteTypes = {
  ShippingQuote: [
    { name: "orderId", type: "string" },
    { name: "payer", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "burnType", type: "uint8" },
    { name: "amount", type: "uint256" },
    { name: "expirationTime", type: "uint256" },
  ],
} as const;

/** The ShippingPaymentProcessor's EIP-712 domain on a chain. */
export const shippingProcessorDomain = (chain: { chainId: number; addresses: { shippingProcessor: `0x${string}` } }) =>
  ({
    name: "ShippingPaymentProcessor",
    version: "1",
    chainId: chain.chainId,
    verifyingContract: chain.addresses.shippingProcessor,
  }) as const;
