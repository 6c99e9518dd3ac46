/** A request the kit's routes refuse: the HTTP status, a code to branch on and a message naming what was wrong. */
export class KitRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 410 | 413 | 415,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'KitRefusal';
  }
}
