import type { WebhookChaos } from "./webhook-chaos.ts";
import type { Replay } from "./replay.ts";
import type { VirtualClock } from "../clock/clock.ts";
import type { Store } from "../state/store.ts";
import type { EventBus } from "../bus.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { Gates } from "./concurrency.ts";
import type { Faults } from "./faults.ts";
import type { CatalogIndex } from "../catalog-data/catalog-index.ts";
import type { ChainHost } from "../chain-host.ts";
import type { Runtime } from "./runtime.ts";

export interface ResolvedOptions {
  seed: number;
  catalog: "default" | "large";
  /** Per-IP budget per minute (not shown in the interface; our choice). */
  ipRateLimitPerMin: number;
  gates: Record<string, number>;
  strictWebhookUrls: boolean;
  /** Delivery chaos for webhooks without their own (docs/webhooks.md "Delivery chaos"); undefined = none. */
  webhookChaos?: WebhookChaos;
  /** Check every answer of a route with a schema against it (tests): a mismatch becomes a 500 and a log line. */
  validateResponses: boolean;
}

/** Everything a handler may use. Built once per emulator in index.ts. */
export interface Services {
  options: ResolvedOptions;
  store: Store;
  clock: VirtualClock;
  bus: EventBus;
  limiter: RateLimiter;
  gates: Gates;
  faults: Faults;
  catalog: CatalogIndex;
  /** Active harness deviations (POST /_emulator/deviations); empty in normal use. */
  deviations: Set<string>;
  /** The local chain, or null when started without one (--no-chain). */
  chain: ChainHost | null;
  /** Recorded reads answered as recorded (`--replay DIR`); absent otherwise. */
  replay?: Replay;
  /** This emulator's timers, queues, locks and ports (pipeline/runtime.ts): never module state. */
  runtime: Runtime;
}
