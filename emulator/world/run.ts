import type { ControlHost } from "../control/route.ts";
import { WORLD_KEY_NAMES } from "../control/account.ts";
import type { Services } from "../pipeline/services.ts";
import { applyWorld, type Dispatch, type NamedKey } from "./apply.ts";
import type { LoadedWorld } from "./load.ts";

// One emulator's world: applied once, right after the emulator is built and before it listens, then kept as
// a snapshot (state and chain together) that reset returns to. The world's faults live outside the state
// (as every injected fault does), so reset lays them again.

export interface WorldRun {
  /** The control host whose reset returns to the world. */
  host: ControlHost;
  /** Applies the world through `dispatch` (this emulator's own fetch) and remembers it as the reset point. */
  apply(dispatch: Dispatch, origin: string): Promise<void>;
  /** The world's named keys, in file order. */
  named(): readonly NamedKey[];
}

export function worldRun(services: Services, loaded: LoadedWorld, inner: ControlHost): WorldRun {
  let base: string | null = null;
  let named: NamedKey[] = [];
  let replayFaults: (() => Promise<void>) | null = null;
  return {
    host: {
      ...inner,
      async reset() {
        if (base === null) return inner.reset();
        services.limiter.clear();
        services.faults.clear();
        for (const h of services.hooks) h.reset?.();
        await inner.restore(base);
        await replayFaults?.();
      },
      // Which world is loaded (GET /_emulator/health, the dashboard's header): its file as given, or
      // "(world option)" for one given as data; how many accounts (partners and tenants) and its named keys.
      info: () => ({
        ...inner.info(),
        world: {
          file: loaded.file,
          accounts: (loaded.world.accounts?.length ?? 0) + (loaded.world.tenants?.length ?? 0),
          keys: named.map((k) => k.name),
        },
      }),
    },
    async apply(dispatch, origin) {
      named = await applyWorld(loaded.file, loaded.world, dispatch, origin);
      const names = services.runtime.of(WORLD_KEY_NAMES);
      for (const k of named) names.set(k.name, k.key);
      const faults = loaded.world.faults ?? [];
      replayFaults = faults.length
        ? async () => {
            await applyWorld(loaded.file, { version: loaded.world.version, faults }, dispatch, origin);
          }
        : null;
      // The world's own requests count toward no one's rate limit.
      services.limiter.clear();
      base = await inner.snapshot();
    },
    named: () => named,
  };
}
