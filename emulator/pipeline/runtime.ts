// What one emulator holds besides its state: timers, queues, locks, ports and
// connections (a promise or a timer id is not JSON, and a restart has none).
// It lives in the emulator instance (`services.runtime`), never in a module, so
// two emulators in one process share nothing. A module declares a slot once (a
// frozen key); each emulator makes its own value on first use.

export interface RuntimeSlot<T> {
  readonly name: string;
  /** Makes the emulator's value on first use; absent for a port some area must provide. */
  readonly create?: () => T;
}

/** A slot whose value each emulator makes on first use. */
export const runtimeSlot = <T>(name: string, create: () => T): RuntimeSlot<T> => Object.freeze({ name, create });

/** A slot an area fills when it starts (`provide`); reading it before is a programming error. */
export const portSlot = <T>(name: string): RuntimeSlot<T> => Object.freeze({ name });

/** Anything that carries an emulator's runtime (its `Services`; a bare `{ runtime }` in unit tests). */
export interface RuntimeOwner {
  readonly runtime: Runtime;
}

export class Runtime {
  readonly #values = new Map<RuntimeSlot<unknown>, unknown>();

  /** This emulator's value of `slot`. */
  of<T>(slot: RuntimeSlot<T>): T {
    const held = this.#values.get(slot);
    if (held !== undefined || this.#values.has(slot)) return held as T;
    if (!slot.create) throw new Error(`${slot.name}: not provided (the area that provides it is not running)`);
    const value = slot.create();
    this.#values.set(slot, value);
    return value;
  }

  has(slot: RuntimeSlot<unknown>): boolean {
    return this.#values.has(slot);
  }

  provide<T>(slot: RuntimeSlot<T>, value: T): void {
    this.#values.set(slot, value);
  }
}
