import { readJsonBody } from '@airlock/web-kit';
import type { Context } from 'hono';
import type { Host, ServerConfig, StoredInputs } from '@airlock/core';
import { ApiError } from '../api-error.js';
import { inputOwner } from '../console-inputs.js';
import type { PageData } from '../page-data.js';
import type { InputView } from '../wire.js';
import type { ApiApp, ApiEnv } from './api-app.js';
import { scopeOf } from './request-input.js';

/** The longest value an input takes: a key or a token, never a document. */
const MAX_VALUE_CHARS = 8192;

/** What the input routes work with. */
export interface InputRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly pageData: PageData;
  readonly servers: readonly ServerConfig[];
  readonly inputs: StoredInputs;
}

/**
 * The server panel's inputs (`${input:ID}` of the config): each with whether it has a value, never the value. A
 * server per user takes the user's own value, which they set; a shared server takes the console's, which only an
 * administrator sets. Setting or clearing one reconnects the server for this user when it is not working (the value
 * is read when it starts), so a server that failed for want of it starts at once.
 */
export function mountInputRoutes({ app, host, pageData, servers, inputs }: InputRoutesOptions): void {
  const serverOf = (c: Context<ApiEnv>) => {
    const id = c.req.param('id') ?? '';
    const view = pageData.servers(scopeOf(c)).find((s) => s.id === id);
    const config = servers.find((s) => s.id === id);
    if (view === undefined || config === undefined) throw new ApiError(404, 'not_found', `no server "${id}"`);
    return { view, declared: config.inputs?.declared ?? [], source: config.inputs?.source ?? '' };
  };
  const list = async (c: Context<ApiEnv>): Promise<InputView[]> => {
    const { view, declared, source } = serverOf(c);
    const userId = inputOwner(view.isolation, scopeOf(c));
    return Promise.all(
      declared.map(async (input) => ({
        id: input.id,
        type: input.type,
        ...(input.description === undefined ? {} : { description: input.description }),
        password: input.password === true,
        ...(input.options === undefined ? {} : { options: input.options }),
        set: (await inputs.get({ userId, source, inputId: input.id })) !== undefined,
        shared: view.isolation !== 'user',
      })),
    );
  };
  /** The input a request names, whose value this user may change; 404 or 403 otherwise. */
  const target = (c: Context<ApiEnv>) => {
    const { view, declared, source } = serverOf(c);
    const input = declared.find((d) => d.id === c.req.param('input'));
    if (input === undefined) {
      throw new ApiError(404, 'not_found', `server "${view.id}" declares no input "${c.req.param('input') ?? ''}"`);
    }
    const userId = inputOwner(view.isolation, scopeOf(c));
    if (view.isolation !== 'user' && !c.get('admin')) {
      const whom = view.isolation === 'workspace' ? 'everyone in this workspace' : 'everyone';
      throw new ApiError(
        403,
        'admin_only',
        `input "${input.id}" serves ${whom} on server "${view.id}" (one connection for them): an administrator sets it`,
      );
    }
    return { view, input, key: { userId, source, inputId: input.id } };
  };
  const reconnect = async (c: Context<ApiEnv>, id: string) => {
    const state = pageData.servers(scopeOf(c)).find((s) => s.id === id)?.state;
    // A server that fails again shows why in its panel; the value is kept either way.
    if (state === 'failed' || state === 'degraded')
      await host.servers.restart(id, { scope: scopeOf(c) }).catch(() => undefined);
  };

  app.get('/api/servers/:id/inputs', async (c) => c.json(await list(c)));

  app.put('/api/servers/:id/inputs/:input', async (c) => {
    const { view, input, key } = target(c);
    const value = (await readJsonBody(c))['value'];
    if (typeof value !== 'string' || value === '' || value.length > MAX_VALUE_CHARS) {
      throw new ApiError(400, 'invalid_request', `value must be a string of 1 to ${MAX_VALUE_CHARS} characters`);
    }
    if (input.options !== undefined && !input.options.includes(value)) {
      throw new ApiError(400, 'invalid_request', `input "${input.id}" takes one of: ${input.options.join(', ')}`);
    }
    await inputs.set(key, value);
    await reconnect(c, view.id);
    return c.json(await list(c));
  });

  app.delete('/api/servers/:id/inputs/:input', async (c) => {
    const { key } = target(c);
    await inputs.clear(key);
    return c.json(await list(c));
  });
}
