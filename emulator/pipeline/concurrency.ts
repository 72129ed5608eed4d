// Endpoint concurrency gates: a full gate sheds with 503 overloaded before metering.

export const DEFAULT_GATES: Record<string, number> = {
  /** The interface document's warehouse read pool. */
  warehouse_read: 20,
  // Not shown in the interface; the SDK's global semaphores (24 reads, 5 purchases, 10 writes, 10 wallet reads).
  catalog: 24,
  partner_read: 24,
  purchase: 5,
  partner_write: 10,
  wallet_read: 10,
};

export class Gates {
  private inFlight = new Map<string, number>();
  constructor(private sizes: Record<string, number>) {}

  /** Enters the gate; returns a release function, or null when full. */
  tryEnter(name: string): (() => void) | null {
    const size = this.sizes[name] ?? Infinity;
    const n = this.inFlight.get(name) ?? 0;
    if (n >= size) return null;
    this.inFlight.set(name, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight.set(name, (this.inFlight.get(name) ?? 1) - 1);
    };
  }

  size(name: string): number {
    return this.sizes[name] ?? Infinity;
  }

  inUse(name: string): number {
    return this.inFlight.get(name) ?? 0;
  }
}
