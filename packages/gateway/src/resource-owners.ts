import type { Host, Scope } from '@airlock/core';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * Which server a resource URI belongs to, as one scope sees the servers: the server that listed it, else the one
 * whose template fits it (the longest fixed prefix wins). URIs pass the gateway unchanged, so a read or a
 * subscription is sent to the server found here. Remembers the scope's latest listings.
 */
export class ResourceOwners {
  readonly #host: Host;
  readonly #scope: Scope;
  readonly #uris = new Map<string, string>();
  #templates: { readonly prefix: string; readonly serverId: string }[] = [];

  constructor(host: Host, scope: Scope) {
    this.#host = host;
    this.#scope = scope;
  }

  /** Remembers which server listed each URI of a listing. */
  listed(items: readonly { readonly uri: string; readonly serverId: string }[]): void {
    for (const item of items) this.#uris.set(item.uri, item.serverId);
  }

  /** Lists the scope's resource templates, remembering their prefixes. */
  async templates(): Promise<Awaited<ReturnType<Host['resources']['templates']>>> {
    const listing = await this.#host.resources.templates({ scope: this.#scope });
    this.#templates = listing.items.map((item) => ({
      prefix: item.uriTemplate.split('{')[0] ?? '',
      serverId: item.serverId,
    }));
    return listing;
  }

  /** The server of `uri`; an InvalidParams protocol error naming it when no server lists it or fits it. */
  async ownerOf(uri: string): Promise<string> {
    if (!this.#uris.has(uri)) this.listed((await this.#host.resources.list({ scope: this.#scope })).items);
    const listed = this.#uris.get(uri);
    if (listed !== undefined) return listed;
    // The longest fixed prefix wins: `file:///{path}` and `file:///logs/{day}` both fit file:///logs/today. A client
    // may read or subscribe without listing templates first, so an unmatched URI lists them again once.
    const fitting = () =>
      this.#templates
        .filter(({ prefix }) => prefix !== '' && uri.startsWith(prefix))
        .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    const fits = fitting() ?? (await this.templates().then(fitting));
    if (fits !== undefined) return fits.serverId;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: no server lists ${uri}`);
  }
}
