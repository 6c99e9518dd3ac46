/** A resource the user asked to open by a click on this page (a card's resource link), until the page opens it. */
let asked: { readonly serverId: string; readonly uri: string } | undefined;

/** Notes the user's click on a resource link: the Resources page, opened next on that address, reads it at once. */
export function askToOpenResource(serverId: string, uri: string): void {
  asked = { serverId, uri };
}

/**
 * True once for the resource the user clicked: an address that names a resource but came from elsewhere (a link from
 * another site, a bookmark) is not read on load, and waits for a click on the page.
 */
export function takeAskedResource(serverId: string, uri: string): boolean {
  const match = asked?.serverId === serverId && asked.uri === uri;
  asked = undefined;
  return match;
}
