// Per-key mutual exclusion for handlers that check state, await (the chain),
// then write: without it, parallel requests for one key (a transaction hash, a
// (partner, token) pair) all pass the check before any of them writes. Calls
// with the same key run one after another, so a later call re-reads the state
// the earlier one wrote (and answers the same record). Locks live beside the
// state, not in it (a promise is not JSON; a restart holds none), scoped per
// emulator by any object that lives as long as it (its store).

const tails = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `fn` once every earlier call holding any of `keys` in `scope` has
 * finished (whether it succeeded or threw). Several keys are taken in sorted
 * order, so two calls can never wait for each other.
 */
export async function withKeyLock<T>(scope: object, keys: string | readonly string[], fn: () => T | Promise<T>): Promise<T> {
  const list = [...new Set(typeof keys === "string" ? [keys] : keys)].sort();
  let held = tails.get(scope);
  if (!held) tails.set(scope, (held = new Map()));
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
