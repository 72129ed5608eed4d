// The small event bus areas talk through (DESIGN: areas never import each
// other's internals). An area emits a domain event; another area reacts.

export interface BusEvents {
  /** A webhook-deliverable event for one account (partner or tenant). */
  "webhook.event": { account_id: string; type: string; key: string; data: Record<string, unknown> };
  /** An unexpected 500 on a warehouse route (opens an integration issue). */
  "warehouse.internal_error": { account_id: string; method: string; path: string; at: string };
  /** State was reset or restored: areas drop caches. */
  "state.replaced": { reason: "reset" | "restore" | "import" };
}

type Listener<T> = (payload: T) => void;

export class EventBus {
  private listeners = new Map<keyof BusEvents, Set<Listener<never>>>();

  on<K extends keyof BusEvents>(type: K, fn: Listener<BusEvents[K]>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(fn as Listener<never>);
    return () => set.delete(fn as Listener<never>);
  }

  emit<K extends keyof BusEvents>(type: K, payload: BusEvents[K]): void {
    for (const fn of this.listeners.get(type) ?? []) (fn as Listener<BusEvents[K]>)(payload);
  }
}
