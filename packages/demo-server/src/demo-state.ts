/** A note of the demo's in-memory notebook. */
export interface DemoNote {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  readonly mimeType: 'text/plain' | 'text/markdown';
}

/** The notes every demo server starts with; `rich_content` links to the first two. */
export const SEED_NOTES: readonly DemoNote[] = [
  { id: '1', title: 'Shopping list', text: 'eggs, milk, coffee', mimeType: 'text/plain' },
  {
    id: '2',
    title: 'Meeting notes',
    text: '# Meeting notes\n\n- ship the demo server\n- **every** tool call seen\n',
    mimeType: 'text/markdown',
  },
  { id: '3', title: 'Ideas', text: 'a host that asks before it acts', mimeType: 'text/plain' },
];

/**
 * What the demo server remembers between calls: notes, the `shape_shifter` definition version and call counts.
 *
 * Kept apart from the server instance because the HTTP entry builds one instance per request (2026-07-28) or per
 * session (2025-11-25); every instance of one process shares one state.
 */
export class DemoState {
  /** The notebook `search_notes`, `write_note` and `delete_note` work on, keyed by id. */
  readonly notes = new Map<string, DemoNote>(SEED_NOTES.map((note) => [note.id, note]));
  #shapeVersion = 1;
  /** Set once a `connect_required` URL flow has been completed. */
  accountConnected = false;
  readonly #calls = new Map<string, number>();

  /** The version number in `shape_shifter`'s description; `change_definition` bumps it. */
  get shapeVersion(): number {
    return this.#shapeVersion;
  }

  /** Bumps the `shape_shifter` definition version and returns the new one. */
  bumpShapeVersion(): number {
    this.#shapeVersion += 1;
    return this.#shapeVersion;
  }

  /** Counts one call that reached a tool. */
  countCall(tool: string): void {
    this.#calls.set(tool, (this.#calls.get(tool) ?? 0) + 1);
  }

  /** Calls received per tool since the process started. */
  callCounts(): Record<string, number> {
    return Object.fromEntries(this.#calls);
  }
}
