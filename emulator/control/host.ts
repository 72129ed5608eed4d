import type { ChainStateExport } from "../../chain/index.ts";
import type { ChainHost } from "../chain-host.ts";
import { badRequest } from "../pipeline/errors.ts";
import { replaceState } from "../pipeline/generation.ts";
import type { Services } from "../pipeline/services.ts";
import type { StateFileStatus } from "../state/state-file.ts";
import { Store, type StateExport } from "../state/store.ts";
import type { ControlHost } from "./route.ts";
import { journalOf } from "../ui/journal.ts";
import { stubsOf } from "../pipeline/stubs.ts";

// What the control plane may do to the emulator as a whole (reset, snapshots, state import, info): the
// store and the chain move together, and a failed import changes nothing. A replacement waits for the worker
// pass in flight and moves the generation, so no work begun before it writes into the new state.

export interface ControlHostParts {
  chainHost: ChainHost | null;
  /** A state's chain kept as it was while no chain runs (for a later start with one). */
  carry(chain: ChainStateExport | null): void;
  stateFile(): StateFileStatus | null;
}

/** What a snapshot keeps beside the store's state: the time it was taken at and the chain's snapshot. */
interface SnapshotExtra {
  now: number;
  chain?: string;
}

export function controlHost(services: Services, parts: ControlHostParts): ControlHost {
  const { store, clock } = services;
  const { chainHost } = parts;
  return {
    async reset() {
      await replaceState(services, async () => {
        store.reset();
        services.faults.clear();
        // A reset starts the next test afresh: its journal shows that test's calls only (restore and import keep it: docs/decisions.md).
        journalOf(services).clear();
        stubsOf(services).clear();
        for (const h of services.hooks) h.reset?.();
        await chainHost?.reset();
      });
      services.bus.emit("state.replaced", { reason: "reset" });
    },
    async snapshot() {
      // HTTP state, chain state and the time roll back together.
      const saved: SnapshotExtra = { now: clock.now(), ...(chainHost ? { chain: await chainHost.snapshot() } : {}) };
      return store.snapshot(saved);
    },
    async restore(id) {
      const saved = store.snapshotExtra(id) as SnapshotExtra;
      // The time first, and outside the replacement (a time move in progress may be running a worker that the
      // replacement waits for); then the chain's block time has nothing to catch up with (no block is mined).
      if (saved.now < clock.now()) await clock.rewind(saved.now);
      await replaceState(services, async () => {
        store.restore(id);
        if (chainHost && saved.chain !== undefined) await chainHost.revert(saved.chain);
      });
      services.bus.emit("state.replaced", { reason: "restore" });
    },
    async importState(doc) {
      let parsed: StateExport;
      try {
        parsed = Store.parseExport(doc);
      } catch (err) {
        throw badRequest("invalid_state", (err as Error).message);
      }
      if (parsed.state.seed !== services.options.seed || parsed.state.catalog_size !== services.options.catalog)
        throw badRequest(
          "invalid_state",
          `this export was made with seed ${parsed.state.seed} / catalog ${parsed.state.catalog_size}; start an emulator with that seed and catalog to import it`,
        );
      // All or nothing: what can fail comes first (the copy, then the chain: a replay that does not end on the
      // recorded block), and then nothing changed; the store's swap cannot fail, and only then are areas told.
      const next = Store.copyOf(parsed);
      await replaceState(services, async () => {
        if (chainHost) {
          try {
            await chainHost.importState(parsed.chain);
          } catch (err) {
            throw badRequest("invalid_state", (err as Error).message);
          }
        } else parts.carry(parsed.chain);
        store.replace(next);
      });
      // Outside the replacement: moving the clock runs the workers, which wait for it to end.
      if (parsed.now > clock.now()) await clock.setTime(parsed.now);
      services.bus.emit("state.replaced", { reason: "import" });
    },
    info() {
      return {
        seed: services.options.seed,
        catalog: services.options.catalog,
        clock: { mode: clock.mode, now: clock.nowIso() },
        chain: chainHost
          ? { rpcUrl: chainHost.gateway.rpcUrl, chainId: chainHost.gateway.chainId, vrf: chainHost.vrfMode }
          : null,
        state_file: parts.stateFile(),
        // No world loaded (a world's run says which: world/run.ts).
        world: null,
      };
    },
  };
}
