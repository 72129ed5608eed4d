import { cardNftAbi, usdStablecoinAbi } from "../chain/index.ts";
import type { Emulator } from "../emulator/index.ts";

// What a test reads on chain to hold the emulator's books against: one reader for each balance,
// through the emulator's own client (the emulator must have been started with a chain).

type Address = `0x${string}`;

/** `who`'s USDC on chain, in micros. */
export const usdcOf = (emu: Emulator, who: Address) =>
  emu.chain!.publicClient.readContract({
    address: emu.chain!.addresses.stablecoin,
    abi: usdStablecoinAbi,
    functionName: "balanceOf",
    args: [who],
  });

/** How many cards `who` holds on chain. */
export const nftsOf = (emu: Emulator, who: Address) =>
  emu.chain!.publicClient.readContract({
    address: emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "balanceOf",
    args: [who],
  });
