/** The pages of the console, each at its own hash (`#/`, `#/permissions`, `#/audit`, `#/resources`). */
export type PageRoute = 'conversation' | 'permissions' | 'audit' | 'resources';

/** The page the address names; anything unknown is the conversation. */
export function currentRoute(): PageRoute {
  const hash = location.hash.replace(/^#\/?/, '');
  return hash === 'permissions' || hash === 'audit' || hash === 'resources' ? hash : 'conversation';
}
