/**
 * The chain's journal: every state-changing JSON-RPC call that reached the in-process network, in the
 * order it ran, with the timestamp of the first block it mined. A fresh network with the same genesis
 * that replays the journal ends on the same block (number, hash, state root): that is how the chain
 * is part of the emulator's state (exports, `--state FILE`). See docs/chain.md "State and restarts".
 *
 * Why a journal and not a dump of accounts and storage: EDR has no state dump over JSON-RPC
 * (no hardhat_dumpState; debug_traceTransaction has no prestate tracer), and a dump would lose the
 * blocks, receipts and logs that the API's records point at (transaction hashes, VRF request logs).
 */

export interface Eip1193Like {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
  addListener?(event: string, listener: (...args: any[]) => void): unknown;
  removeListener?(event: string, listener: (...args: any[]) => void): unknown;
}

/** `[method, params]`, plus the unix-seconds timestamp of the first block the call mined, if it mined any. */
export type JournalEntry =
  [method: string, params: unknown[]] | [method: string, params: unknown[], firstBlockTime: number];

/** The latest block: a replay must end on exactly this block. */
export interface ChainHead {
  number: number;
  hash: `0x${string}`;
  /** Unix seconds. */
  timestamp: number;
}

/**
 * Calls that change the chain, or what later calls do. Not journaled on purpose:
 * evm_setNextBlockTimestamp / evm_increaseTime (every mined block's time is recorded instead, and
 * after a restart block time follows the emulator clock), evm_snapshot / evm_revert (handled as
 * journal positions), filters and subscriptions (connection state, not chain state).
 */
export const JOURNALED_METHODS: ReadonlySet<string> = new Set([
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "evm_mine",
  "hardhat_mine",
  "evm_setAutomine",
  "evm_setBlockGasLimit",
  "hardhat_setBalance",
  "hardhat_setCode",
  "hardhat_setNonce",
  "hardhat_setStorageAt",
  "hardhat_setCoinbase",
  "hardhat_setMinGasPrice",
  "hardhat_setNextBlockBaseFeePerGas",
  "hardhat_setPrevRandao",
  "hardhat_impersonateAccount",
  "hardhat_stopImpersonatingAccount",
  "hardhat_dropTransaction",
  "hardhat_reset",
]);

/** Serialised with the journaled calls so the journal's order is the order they ran in. */
const ORDERED_METHODS: ReadonlySet<string> = new Set([
  ...JOURNALED_METHODS,
  "evm_snapshot",
  "evm_revert",
  "evm_setNextBlockTimestamp",
  "evm_increaseTime",
]);

export class JournalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JournalError";
  }
}

interface RpcBlock {
  number: string;
  hash: `0x${string}`;
  timestamp: string;
  transactions?: unknown[];
}

const headOf = (b: RpcBlock): ChainHead => ({
  number: Number(b.number), // a 0x quantity: Number parses hex exactly below 2^53
  hash: b.hash,
  timestamp: Number(b.timestamp),
});

/**
 * Wraps a provider: journaled calls run one at a time and are recorded when they succeed;
 * evm_snapshot remembers the journal's length, evm_revert cuts the journal back to it.
 */
export class ChainJournal implements Eip1193Like {
  /** Entries are never mutated, only appended or cut off, so a copy of the array is a cheap snapshot. */
  private entries: JournalEntry[];
  private snapshotLengths = new Map<string, number>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Calls that may have changed what the chain holds (see `changes`). */
  private _changes = 0;
  /** Calls that took blocks back (see `rewinds`). */
  private _rewinds = 0;
  /** Ordered calls queued or running: while none is, `head` is the node's latest block. */
  private inFlight = 0;
  private _head: ChainHead;

  private constructor(
    private readonly inner: Eip1193Like,
    entries: JournalEntry[],
    head: ChainHead,
  ) {
    this.entries = entries;
    this._head = head;
  }

  /** A journal for a network that ran `entries` already (none for a fresh one). */
  static async over(inner: Eip1193Like, entries: JournalEntry[] = []): Promise<ChainJournal> {
    const head = headOf(
      (await inner.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as RpcBlock,
    );
    return new ChainJournal(inner, entries, head);
  }

  get length(): number {
    return this.entries.length;
  }

  get head(): ChainHead {
    return this._head;
  }

  /**
   * Counts the calls that may have changed the chain's contracts and logs: every journaled call and every revert,
   * except a mine of one block without transactions (the clock's empty blocks: only the head's number and time move).
   */
  get changes(): number {
    return this._changes;
  }

  /**
   * Counts the calls that took the chain back (a revert, a reset): while it stays, every block the journal's head
   * passed through is still in the chain with the same hash (blocks are only added on top).
   */
  get rewinds(): number {
    return this._rewinds;
  }

  /** The head when no ordered call is in flight (then it is exactly the node's latest block), else null. */
  get settledHead(): ChainHead | null {
    return this.inFlight === 0 ? this._head : null;
  }

  /** The entries so far (a copy; entries themselves are immutable). */
  snapshotEntries(length = this.entries.length): JournalEntry[] {
    return this.entries.slice(0, length);
  }

  addListener(event: string, listener: (...args: any[]) => void): unknown {
    return this.inner.addListener?.(event, listener);
  }

  removeListener(event: string, listener: (...args: any[]) => void): unknown {
    return this.inner.removeListener?.(event, listener);
  }

  /** A snapshot taken on the network directly (during a replay) at journal position `length`. */
  adoptSnapshot(id: string, length: number): void {
    this.snapshotLengths.set(id, length);
  }

  request(args: { method: string; params?: unknown[] | object }): Promise<unknown> {
    if (
      args.method === "evm_setIntervalMining" &&
      Array.isArray(args.params) &&
      args.params[0] !== 0 &&
      args.params[0] !== "0x0"
    )
      // Blocks mined by wall time could not be replayed, so the chain could not be restored from a state file.
      return Promise.reject(
        new JournalError(
          "evm_setIntervalMining is not supported by the emulator's chain (its blocks could not be restored from a state file); mine with evm_mine",
        ),
      );
    if (!ORDERED_METHODS.has(args.method)) return this.inner.request(args);
    this.inFlight++;
    const run = this.tail.then(() => this.ordered(args)).finally(() => this.inFlight--);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async ordered(args: { method: string; params?: unknown[] | object }): Promise<unknown> {
    const params = Array.isArray(args.params) ? args.params : args.params === undefined ? [] : [args.params];
    const result = await this.inner.request(args);
    switch (args.method) {
      case "evm_snapshot":
        this.snapshotLengths.set(String(result), this.entries.length);
        return result;
      case "evm_revert": {
        const id = String(params[0]);
        const length = this.snapshotLengths.get(id);
        if (result === true && length === undefined) {
          this._changes++;
          this._rewinds++;
        }
        if (result === true && length !== undefined) {
          this.entries = this.entries.slice(0, length);
          // Hardhat consumes the snapshot and every later one (ids count up: 0x1, 0x2, …).
          const order = (v: string) => (/^0x[0-9a-f]+$/i.test(v) ? BigInt(v) : null);
          const from = order(id);
          for (const [other] of this.snapshotLengths) {
            const at = order(other);
            if (other === id || (from !== null && at !== null && at >= from)) this.snapshotLengths.delete(other);
          }
          const head = await this.latest();
          // Head and count change together (no await between): a reader that sees one sees the other.
          this._head = head;
          this._changes++;
          this._rewinds++;
        }
        return result;
      }
      case "evm_setNextBlockTimestamp":
      case "evm_increaseTime":
        return result;
    }
    const before = this._head;
    const { head: after, empty } = await this.latestBlock();
    const mine = args.method === "evm_mine" || args.method === "hardhat_mine";
    const unchanged = mine && empty && after.number === before.number + 1;
    let entry: JournalEntry = [args.method, params];
    if (after.number > before.number) {
      const first =
        after.number === before.number + 1
          ? after
          : headOf(
              (await this.inner.request({
                method: "eth_getBlockByNumber",
                params: [`0x${(before.number + 1).toString(16)}`, false],
              })) as RpcBlock,
            );
      entry = [args.method, params, first.timestamp];
    }
    // Entry and head change together, so an export never sees one without the other.
    this.entries.push(entry);
    this._head = after;
    if (!unchanged) this._changes++;
    // Anything but blocks on top of the old head (a reset) took blocks back.
    if (after.number < before.number || (after.number === before.number && after.hash !== before.hash)) this._rewinds++;
    return result;
  }

  private async latest(): Promise<ChainHead> {
    return (await this.latestBlock()).head;
  }

  /** The latest block's head, and whether it holds no transaction. */
  private async latestBlock(): Promise<{ head: ChainHead; empty: boolean }> {
    const block = (await this.inner.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as RpcBlock;
    return { head: headOf(block), empty: Array.isArray(block.transactions) && block.transactions.length === 0 };
  }
}

/**
 * Replays `entries` onto `inner` (a fresh network with the recorded genesis), calling `at(i)` before
 * entry i (and with entries.length at the end) so the caller can take a snapshot at a position.
 * Throws a JournalError naming the entry when a call fails.
 */
export async function replayJournal(
  inner: Eip1193Like,
  entries: readonly JournalEntry[],
  at?: (index: number) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < entries.length; i++) {
    await at?.(i);
    const [method, params, firstBlockTime] = entries[i]!;
    try {
      if (firstBlockTime !== undefined)
        await inner.request({ method: "evm_setNextBlockTimestamp", params: [firstBlockTime] });
      await inner.request({ method, params });
    } catch (err) {
      throw new JournalError(`chain journal entry ${i} (${method}) failed on replay: ${(err as Error).message}`);
    }
  }
  await at?.(entries.length);
}
