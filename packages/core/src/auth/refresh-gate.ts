import type { Clock } from '../clock.js';

/**
 * One refresh at a time per provider. Requests that go out together (a call and the stream beside it) may all meet a
 * 401 when the access token dies, and each hands it to the SDK's `auth()`: refreshing in parallel with one refresh
 * token would spend it twice, and an authorization server that rotates refresh tokens takes the second use for a
 * replay and revokes the grant. So the second `auth()` waits at the gate (when it reads the tokens to refresh) until
 * the first has stored its new tokens or given up, then refreshes with what is stored by then.
 *
 * A refresh that never comes back (the SDK threw between reading and storing) opens the gate after `limitMs` of the
 * clock.
 */
export class RefreshGate {
  #current: { readonly promise: Promise<void>; readonly release: () => void } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly limitMs = 30_000,
  ) {}

  /** Waits for the refresh under way, if any, then holds the gate for this one. */
  async enter(): Promise<void> {
    while (this.#current !== undefined) await this.#current.promise;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    const cancel = this.clock.setTimer(() => this.leave(), this.limitMs);
    this.#current = {
      promise,
      release: () => {
        cancel();
        resolve();
      },
    };
  }

  /** Opens the gate: the refresh under way stored its tokens or gave up. */
  leave(): void {
    const current = this.#current;
    this.#current = undefined;
    current?.release();
  }
}
