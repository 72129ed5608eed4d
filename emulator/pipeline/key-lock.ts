import { runtimeSlot, type RuntimeOwner } from "./runtime.ts";

// Per-key mutual exclusion for handlers that check state, await (the chain),
// then write: without it, parallel requests for one key (a transaction hash, a
// (partner, token) pair) all pass the check before any of them writes. Calls
// with the same key run one after another, so a later call re-reads the state
// the earlier one wrote (and answers the same record). With one fixed key it is
// the emulator's serial queue for a job (a worker run, a top-up): a job that
// throws rejects its own caller and the next one still runs. Locks live in the
// emulator's runtime, not in its state (a promise is not JSON; a restart holds none).

const LOCKS = runtimeSlot("key locks", () => new Map<string, Promise<void>>());

/**
 * Runs `fn` once every earlier call holding any of `keys` in this emulator has
 * finished (whether it succeeded or threw). Several keys are taken in sorted
 * order, so two calls can never wait for each other.
 */
export async function withKeyLock<T>(
  owner: RuntimeOwner,
  keys: string | readonly string[],
  fn: () => T | Promise<T>,
): Promise<T> {
  const list = [...new Set(typeof keys === "string" ? [keys] : keys)].sort();
  const held = owner.runtime.of(LOCKS);
  const releases: Array<() => void> = [];
  try {
    for (const key of list) releases.push(await acquire(held, key));
    return await fn();
  } finally {
    for (const release of releases.reverse()) release();
  }
}

async function acquire(held: Map<string, Promise<void>>, key: string): Promise<() => void> {
  const before = held.get(key) ?? Promise.resolve();
  let open!: () => void;
  const mine = new Promise<void>((resolve) => (open = resolve));
  const tail = before.then(() => mine);
  held.set(key, tail);
  await before;
  return () => {
    open();
    // The last holder of a key removes it, so the map only holds keys in use.
    if (held.get(key) === tail) held.delete(key);
  };
}
