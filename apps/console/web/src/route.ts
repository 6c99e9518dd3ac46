/** The pages of the console, each at its own hash (`#/`, `#/permissions`, `#/audit`, `#/resources`). */
export type PageRoute = 'conversation' | 'permissions' | 'audit' | 'resources';

/** The page the address names; anything unknown is the conversation. */
export function currentRoute(): PageRoute {
  // The path only: a page may carry a query (`#/resources?server=demo&uri=…`).
  const hash = location.hash.replace(/^#\/?/, '').split('?')[0] ?? '';
  return hash === 'permissions' || hash === 'audit' || hash === 'resources' ? hash : 'conversation';
}

/** The query of the address's hash (`#/resources?server=…&uri=…`): what a page was opened to show. */
export function routeQuery(): URLSearchParams {
  const at = location.hash.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : location.hash.slice(at + 1));
}
