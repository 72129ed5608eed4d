import { cardNftAbi } from "../../chain/index.ts";
import { user } from "./helpers.ts";
import type { RaceCtx } from "./race-helpers.ts";
import { nftsOf, usdcOf } from "../chain-reads.ts";

// What the money property tests (mystery and instant) read before and after a
// run: every party's on-chain USDC and card count, and each end user's
// custodial ledger balance.

export interface Book {
  usdc: Map<string, bigint>;
  nfts: Map<string, bigint>;
  ledger: Map<string, bigint>;
}

type Address = `0x${string}`;

export const ownerOf = (ctx: RaceCtx, id: string) =>
  ctx.emu.chain!.publicClient.readContract({
    address: ctx.emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "ownerOf",
    args: [BigInt(id)],
  });
/** An end user's wallet view (custodial balance, its custodial address). */
export const endUser = async (ctx: RaceCtx, u: string) =>
  (await ctx.api.get(`/api/v1/wallet/balance?external_user_id=${u}`).set("X-API-Key", ctx.demo).expect(200)).body.data;

export const sum = (m: Map<string, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n);

/** The book over the two fixture wallets, the end users' custodial wallets and ledgers, and `parties` by name. */
export async function readBook(
  ctx: RaceCtx,
  users: readonly string[],
  parties: Record<string, Address>,
): Promise<Book> {
  const wallets = new Map<string, Address>();
  for (const i of [0, 1]) wallets.set(`wallet-${i}`, user(ctx, i).address);
  for (const u of users) wallets.set(u, (await endUser(ctx, u)).end_user.wallet_address);
  for (const [name, a] of Object.entries(parties)) wallets.set(name, a);
  const out: Book = { usdc: new Map(), nfts: new Map(), ledger: new Map() };
  for (const [name, a] of wallets) {
    out.usdc.set(name, await usdcOf(ctx.emu, a));
    out.nfts.set(name, await nftsOf(ctx.emu, a));
  }
  for (const u of users) out.ledger.set(u, BigInt((await endUser(ctx, u)).wallet.balance));
  return out;
}
