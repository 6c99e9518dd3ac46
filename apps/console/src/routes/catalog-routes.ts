import { ApiError } from '../api-error.js';
import type { PageData } from '../page-data.js';
import type { ApiApp } from './api-app.js';
import { scopeOf } from './request-input.js';

/** What the catalog routes work with. */
export interface CatalogRoutesOptions {
  readonly app: ApiApp;
  readonly pageData: PageData;
}

/**
 * What there is to call: the servers (their state, never their command line) and the tools an audience sees, each
 * with its risk and stored decision. A page refetches these when the stream says they changed.
 */
export function mountCatalogRoutes({ app, pageData }: CatalogRoutesOptions): void {
  app.get('/api/servers', (c) => c.json(pageData.servers(scopeOf(c))));
  app.get('/api/tools', (c) => {
    const audience = c.req.query('audience') ?? 'model';
    if (audience !== 'model' && audience !== 'user') {
      throw new ApiError(400, 'invalid_request', 'audience must be "model" or "user"');
    }
    return c.json(pageData.toolEntries(scopeOf(c), audience));
  });
}
