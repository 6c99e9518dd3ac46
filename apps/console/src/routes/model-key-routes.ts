import { readJsonBody } from '@airlock/web-kit';
import type { Context } from 'hono';
import { ApiError } from '../api-error.js';
import type { ModelKeys } from '../model-keys.js';
import type { ApiApp, ApiEnv } from './api-app.js';

/** The longest key kept: a key or a token, never a document. */
const MAX_KEY_CHARS = 8192;

/** What the model key routes work with. */
export interface ModelKeyRoutesOptions {
  readonly app: ApiApp;
  /** Absent when no model is configured: the list is empty and nothing can be kept. */
  readonly modelKeys: ModelKeys | undefined;
}

/**
 * The user's own API keys for the chat's models (`keyFrom: "user"`): the list says, per model, whether a key is kept,
 * never the key; a PUT keeps one (replacing theirs), a DELETE forgets it. Each answers with the list as it now is.
 * A key is the signed-in user's own: nobody else's turn sends it, an administrator included.
 */
export function mountModelKeyRoutes({ app, modelKeys }: ModelKeyRoutesOptions): void {
  const owner = (c: Context<ApiEnv>) => {
    const session = c.get('session');
    return { userId: session.userId, workspaceId: session.workspaceId };
  };
  const list = async (c: Context<ApiEnv>) => ({ models: (await modelKeys?.list(owner(c).userId)) ?? [] });
  /** The model a request names, which must take a user's key; 404 or 400 otherwise. */
  const target = (c: Context<ApiEnv>) => {
    const id = c.req.param('model') ?? '';
    const model = modelKeys?.model(id);
    if (modelKeys === undefined || model === undefined) {
      throw new ApiError(404, 'not_found', `model "${id}" is not one of the chat's models`);
    }
    if (model.keyFrom !== 'user') {
      throw new ApiError(
        400,
        'invalid_request',
        `model "${id}" (${model.label}) takes no key of yours: its config has no keyFrom "user"`,
      );
    }
    return { modelKeys, model };
  };

  app.get('/api/model-keys', async (c) => c.json(await list(c)));

  app.put('/api/model-keys/:model', async (c) => {
    const { modelKeys: keys, model } = target(c);
    const raw = (await readJsonBody(c))['key'];
    // A pasted key often brings a line break along.
    const key = typeof raw === 'string' ? raw.trim() : raw;
    if (typeof key !== 'string' || key === '') {
      throw new ApiError(400, 'invalid_request', 'key must be the API key as text (it is empty)');
    }
    if (key.length > MAX_KEY_CHARS || !/^[\x21-\x7e]+$/.test(key)) {
      throw new ApiError(
        400,
        'invalid_request',
        `key must be one word of 1 to ${MAX_KEY_CHARS} printable characters (no spaces or line breaks)`,
      );
    }
    await keys.keep(owner(c), model, key);
    return c.json(await list(c));
  });

  app.delete('/api/model-keys/:model', async (c) => {
    const { modelKeys: keys, model } = target(c);
    await keys.forget(owner(c), model);
    return c.json(await list(c));
  });
}
