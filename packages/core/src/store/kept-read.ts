/**
 * A resource read kept whole behind its handle in a store several hosts share, so the handle one instance gave opens
 * on any (the model's cut notice, a screen's "show all", a full-size view). `contents` is the server's contents as
 * JSON text, stored as given.
 */
export interface KeptReadRecord {
  /** The handle's id (`airlock:read/<id>`). */
  readonly id: string;
  readonly userId: string;
  readonly workspaceId: string;
  readonly serverId: string;
  readonly uri: string;
  readonly contents: string;
  readonly keptAt: number;
}
