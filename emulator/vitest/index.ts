import { afterEach, beforeEach, inject } from "vitest";
import { connect, type ControlClient, type ControlInput, type ControlOutput } from "../control-client.ts";
import type { CONTROL_TABLE } from "../control/client.generated.ts";
import { PROVIDED, type SharedEmulator } from "./shared.ts";

// The kit's helpers for test files, under the globalSetup of ./setup.ts: the shared emulator with a
// connected control client, a fresh partner account per test (isolation without a restart), and
// snapshot/restore around each test. docs/test-runners.md says which to choose.

export type { SharedEmulator } from "./shared.ts";

/** The shared emulator in a test file: its URL, keys and a control client connected to it. */
export interface KitEmulator extends SharedEmulator {
  /** A fixture key by name (`demo`, `tenant`, …): shared by every file. */
  key(name: string): string;
  control: ControlClient;
}

/** The emulator the kit's globalSetup provided (or the one given, in a setup of your own). */
export function useEmulator(shared: SharedEmulator = inject(PROVIDED)): KitEmulator {
  if (!shared?.url)
    throw new Error(
      'cardos-emulator/vitest: no emulator was provided; add globalSetup: ["cardos-emulator/vitest/setup"] to your vitest config',
    );
  return {
    ...shared,
    key(name) {
      const found = shared.keys.find((k) => k.name === name);
      if (!found) throw new Error(`no fixture key named "${name}" (${shared.keys.map((k) => k.name).join(", ")})`);
      return found.key;
    },
    control: connect(shared.url),
  };
}

type KeysAdd = (typeof CONTROL_TABLE)["keys"]["add"];

/** What POST /_emulator/keys takes, the kind optional (partner). */
export type FreshAccountOptions = Partial<ControlInput<KeysAdd>>;

/** A new key on an account of its own, as POST /_emulator/keys answers, and the header to send it in. */
export type FreshAccount = ControlOutput<KeysAdd> & { headers: { "X-API-Key": string } };

/**
 * A new partner key on a new account (its own credits, webhooks, purchases): one control call, so
 * a test is isolated from every other test and file without a restart. A tenant key joins its
 * `account_id` (default `northwind`, the fixture tenant), as POST /_emulator/keys does.
 */
export async function freshAccount(
  options: FreshAccountOptions = {},
  emulator: KitEmulator = useEmulator(),
): Promise<FreshAccount> {
  const created = await emulator.control.keys.add({ kind: "partner", ...options });
  return { ...created, headers: { "X-API-Key": created.key } };
}

/**
 * Snapshot before each test, restore after it (state, chain and clock): each test starts where the
 * file did. A restore is the whole emulator's, so files that use it must not run in parallel against
 * one emulator (`fileParallelism: false`); fresh accounts have no such limit.
 */
export function isolateEach(emulator: () => KitEmulator = () => useEmulator()): void {
  let snapshot: { id: string; control: ControlClient } | null = null;
  beforeEach(async () => {
    const { control } = emulator();
    snapshot = { id: (await control.state.snapshot()).id, control };
  });
  afterEach(async () => {
    if (!snapshot) return;
    const { id, control } = snapshot;
    snapshot = null;
    await control.state.restore({ id });
  });
}
