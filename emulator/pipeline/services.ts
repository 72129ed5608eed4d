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
  /** The emulator-only test values (pipeline/test-values.ts) apply; `--no-test-values` turns them off. */
  testValues: boolean;
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
  /** What the attached plugins hook into the runtime (pipeline/hooks.ts); empty without plugins. */
  hooks: readonly RuntimeHooks[];
  /** The host running the local chain (its `.chain` is the Chain), or null when started without one (--no-chain). */
  chainHost: ChainHost | null;
  /** Recorded reads answered as recorded (`--replay DIR`); absent otherwise. */
  replay?: Replay;
  /** This emulator's timers, queues, locks and ports (pipeline/runtime.ts): never module state. */
  runtime: Runtime;
}

// The runtime hooks plugins attach (applied in ./hooks.ts); beside Services, which they see.

export type Body = Record<string, unknown> & { data?: unknown; error?: unknown; details?: unknown; code?: unknown };

/** A finished answer outside /_emulator, as a hook may rewrite it. */
export interface Exchange {
  req: Request;
  url: URL;
  status: number;
  headers: Headers;
  /** Parsed JSON body (null when not JSON). Mutate it or replace it. */
  body: Body | null;
  services: Services;
}

export interface RuntimeHooks {
  /** Whether `answer` wants the answers now; cheap, so an idle hook costs no parse. */
  rewriting?(): boolean;
  /** Rewrites a finished answer (it may also change state through `x.services`, as a broken server would). */
  answer?(x: Exchange): void;
  /** Added to the wall time a webhook delivery is signed with, in ms (a delivery is no answer to rewrite). */
  signingOffsetMs?(): number;
  /** Rewrites an outgoing webhook delivery's body before it is signed (`attempt`: 1 for the first). */
  deliveryBody?(body: string, attempt: number): string;
  /** Rewrites an outgoing webhook delivery's headers after signing (`attempt`: 1 for the first). */
  deliveryHeaders?(headers: Record<string, string>, attempt: number): void;
  /** Called when the emulator resets. */
  reset?(): void;
}
