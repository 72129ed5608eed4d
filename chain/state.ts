/**
 * The chain as data inside a state export (see chain/journal.ts for how it is recorded and replayed).
 * Plain JSON and no Hardhat import, so the state layer can validate an export without loading a network.
 */
import { JOURNALED_METHODS, JournalError, type ChainHead, type JournalEntry } from "./journal.ts";

export interface ChainAddresses {
  stablecoin: `0x${string}`;
  cardNft: `0x${string}`;
  mysteryPool: `0x${string}`;
  vrfCoordinator: `0x${string}`;
  marketplace: `0x${string}`;
  multicall3: `0x${string}`;
  /** Redemption shipping payments (payShipping with the shipping signer's EIP-712 quote). */
  shippingProcessor: `0x${string}`;
  /** The instant-pack store (purchaseInstantOpenFor). */
  instantPack: `0x${string}`;
}

/** The chain inside a state export: enough to rebuild it exactly (same addresses, blocks, balances, pending VRF requests). */
export interface ChainStateExport {
  chain_id: number;
  /** Unix seconds of block 0. */
  genesis_time: number;
  /** What deployment left: addresses, the pool's VRF subscription, its last block and journal position (where `reset` goes back to). */
  deployment: {
    addresses: ChainAddresses;
    vrf_subscription_id: string;
    vrf_key_hash: `0x${string}`;
    block: number;
    journal_length: number;
  };
  /** The block the replay must end on. */
  head: ChainHead;
  journal: JournalEntry[];
}

const isHex = (v: unknown): v is `0x${string}` => typeof v === "string" && /^0x[0-9a-fA-F]*$/.test(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/** Checks the shape of a chain section; throws a one-line reason. */
export function parseChainExport(input: unknown): ChainStateExport {
  const doc = input as Partial<ChainStateExport> | null;
  const bad = (what: string) => new JournalError(`the state's chain section is malformed (${what})`);
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw bad("not an object");
  if (!isCount(doc.chain_id)) throw bad("chain_id");
  if (!isCount(doc.genesis_time)) throw bad("genesis_time");
  const d = doc.deployment;
  if (!d || typeof d !== "object") throw bad("deployment");
  const names: Array<keyof ChainAddresses> = [
    "stablecoin",
    "cardNft",
    "mysteryPool",
    "vrfCoordinator",
    "marketplace",
    "multicall3",
    "shippingProcessor",
    "instantPack",
  ];
  if (
    !d.addresses ||
    typeof d.addresses !== "object" ||
    !names.every((n) => isHex(d.addresses[n]) && d.addresses[n].length === 42)
  )
    throw bad("deployment.addresses");
  if (typeof d.vrf_subscription_id !== "string" || !/^[0-9]+$/.test(d.vrf_subscription_id))
    throw bad("deployment.vrf_subscription_id");
  if (!isHex(d.vrf_key_hash)) throw bad("deployment.vrf_key_hash");
  if (!isCount(d.block) || !isCount(d.journal_length)) throw bad("deployment.block / journal_length");
  const h = doc.head;
  if (!h || typeof h !== "object" || !isCount(h.number) || !isHex(h.hash) || !isCount(h.timestamp)) throw bad("head");
  if (!Array.isArray(doc.journal)) throw bad("journal");
  if (d.journal_length > doc.journal.length) throw bad("deployment.journal_length is past the journal's end");
  doc.journal.forEach((e, i) => {
    if (
      !Array.isArray(e) ||
      e.length < 2 ||
      e.length > 3 ||
      typeof e[0] !== "string" ||
      !JOURNALED_METHODS.has(e[0]) ||
      !Array.isArray(e[1]) ||
      (e.length === 3 && !isCount(e[2]))
    )
      throw bad(`journal entry ${i}`);
  });
  return doc as ChainStateExport;
}
