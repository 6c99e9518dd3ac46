import type { StoreWrite } from '../../store/host-store.js';
import { storedSwitch, storedSwitchKey, switchKeyText } from '../../store/switches.js';
import type { SwitchRecord } from '../../store/switches.js';

/**
 * The switches of a `MemoryStore`: the rows of what is off, by key. Each change returns what takes it back, so a
 * refused batch leaves none of its writes.
 */
export class MemorySwitches {
  readonly #rows = new Map<string, SwitchRecord>();

  /** Applies a `switch.put` or `switch.delete` write; returns what takes it back. */
  apply(write: Extract<StoreWrite, { kind: 'switch.put' | 'switch.delete' }>): () => void {
    const record = write.kind === 'switch.put' ? storedSwitch(write.record) : undefined;
    const text = switchKeyText(record ?? storedSwitchKey(write.kind === 'switch.delete' ? write.key : write.record));
    const previous = this.#rows.get(text);
    if (record === undefined) this.#rows.delete(text);
    else this.#rows.set(text, record);
    return () => {
      if (previous === undefined) this.#rows.delete(text);
      else this.#rows.set(text, previous);
    };
  }

  /** Every row, in key order (as the databases sort them). */
  list(): SwitchRecord[] {
    return [...this.#rows.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, record]) => ({ ...record }));
  }
}
