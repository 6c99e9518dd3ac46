import { initialState } from './state.js';
import type { PageState } from './state.js';

/**
 * Holds the page's current state and draws it. Changing the state does not draw: the event stream draws after each
 * event and an action after its request, so a sheet the user answered stays until the console has taken the answer.
 */
export class PageStore {
  #state: PageState = initialState();

  constructor(private readonly draw: (state: PageState) => void) {}

  get state(): PageState {
    return this.#state;
  }

  /** Replaces the state with one made from it. */
  update(change: (state: PageState) => PageState): void {
    this.#state = change(this.#state);
  }

  /** Draws the current state. */
  render(): void {
    this.draw(this.#state);
  }
}
