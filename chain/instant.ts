// Prices are written as decimal USDC text and parsed to bigint micros by the one money module.
import { microsOfDecimal as usd } from "../contract/money.ts";

/**
 * The instant-pack store's on-chain configuration, deployed by startChain() (InstantPack.sol):
 * packet types with a fixed stablecoin price, a finite stock of pre-built bundles and the number
 * of cards in each. What each packet type is in the catalog (set, product, images) and which cards
 * each bundle holds come from fixtures/instant (deterministic from the seed).
 */
export interface PacketTypeConfig {
  packetTypeId: number;
  /** Stablecoin micros. */
  price: bigint;
  /** Bundles for sale at deployment (0 = sold out from the start). */
  stock: number;
  cardsPerPack: number;
}

export const DEFAULT_PACKET_TYPES: readonly PacketTypeConfig[] = [
  { packetTypeId: 1, price: usd("4.99"), stock: 24, cardsPerPack: 5 },
  { packetTypeId: 2, price: usd("5.49"), stock: 12, cardsPerPack: 5 },
  { packetTypeId: 3, price: usd("29.99"), stock: 3, cardsPerPack: 3 },
  { packetTypeId: 4, price: usd("3.99"), stock: 0, cardsPerPack: 5 },
];
