import type { ServerLogLine } from './server-log.js';
import type { ServerState } from './server-state.js';

/** The events of servers and their lists, by name; the host's event map includes them. */
export interface ServerEventMap {
  /**
   * A connection's state. `tenant` (e.g. `user:alice`) marks one tenant's own connection of a server per tenant: a
   * surface shows it to that tenant only. Without it, the state is the server's for everyone.
   */
  'server.state': {
    readonly serverId: string;
    readonly tenant?: string;
    readonly state: ServerState;
    readonly error?: string;
  };
  /** Something a person should know about a server that did not stop it: a bad tool left out, garbage on stdout. */
  'server.warning': { readonly serverId: string; readonly tenant?: string; readonly message: string };
  /**
   * A line a server wrote to stderr or sent as a log notification (the server's own words, which may hold secrets:
   * a surface shows them to administrators only). `tenant` as for `server.state`.
   */
  'server.log': { readonly serverId: string; readonly tenant?: string; readonly line: ServerLogLine };
  /** The tools changed: for everyone, or (with `tenant`) as one tenant sees them. */
  'tools.changed': { readonly serverId: string | null; readonly tenant?: string };
  /** A server's resources or resource templates changed (`notifications/resources/list_changed`): list again. */
  'resources.changed': { readonly serverId: string; readonly tenant?: string };
  /** A resource someone subscribed to changed on the server (`notifications/resources/updated`): read it again. */
  'resource.updated': { readonly serverId: string; readonly tenant?: string; readonly uri: string };
  /** A server's prompts changed (`notifications/prompts/list_changed`): list again. */
  'prompts.changed': { readonly serverId: string; readonly tenant?: string };
}

/**
 * What the server catalog and the resource service need of the host's emitter: its server events only, so neither
 * depends on the whole event map (which names the calls and questions built above them).
 */
export interface ServerEvents {
  on<E extends keyof ServerEventMap>(name: E, listener: (event: ServerEventMap[E]) => void): () => void;
  emit<E extends keyof ServerEventMap>(name: E, event: ServerEventMap[E]): void;
}
