/**
 * State a module keeps for one context (a cache, the tickets it issued, its retry bookkeeping), held
 * by the context itself so that it lives and goes with it: the module declares a slot, the context
 * creates the slot's value on first use.
 */
export interface Slot<T> {
  readonly name: string;
  readonly create: () => T;
}

/** Declares a slot; `create` makes its value, once per context. */
export function slot<T>(name: string, create: () => T): Slot<T> {
  return Object.freeze({ name, create });
}

export class Slots {
  readonly #values = new Map<Slot<unknown>, unknown>();

  /** The slot's value in this context, made on first use. */
  get<T>(slot: Slot<T>): T {
    if (!this.#values.has(slot)) this.#values.set(slot, slot.create());
    return this.#values.get(slot) as T;
  }
}
