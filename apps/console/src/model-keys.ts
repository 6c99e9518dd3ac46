import { createHash } from 'node:crypto';
import type { AuditEventInput, Clock, StoredInputs, StoredInputKey } from '@airlock/core';
import type { ModelConfig } from './model-config.js';
import type { ModelKeyView } from './wire.js';

/**
 * The `StoredInputs` source users' model keys are kept under. No config file's path equals it, so no server's
 * `${input:ID}` can ask for a model key.
 */
const MODEL_KEYS_SOURCE = 'airlock-console:model-keys';

/** Who keeps or forgets a key: the user (whose key it is) and the workspace the audit event lands in. */
export interface ModelKeyOwner {
  readonly userId: string;
  readonly workspaceId: string;
}

/** An endpoint's URL without trailing slashes, so `…/v1` and `…/v1/` keep one key. */
const endpointOf = (model: ModelConfig) => model.baseURL.replace(/\/+$/, '');

/**
 * Users' own API keys for the chat's models (`keyFrom: "user"` in the config), each user's own: sealed in the store
 * with the host's vault through `StoredInputs`, never in the config file, never sent back to the page. A key is bound
 * to the endpoint it was entered for (not to a label), so a config that points a label elsewhere never sends it
 * there; the models at one endpoint share it. Keeping and forgetting are audited, without the key.
 */
export class ModelKeys {
  readonly #models: readonly (ModelConfig & { readonly label: string })[];
  readonly #stored: StoredInputs;
  readonly #clock: Clock;

  constructor(options: {
    /** The chat's models in its order (the default first), as `Chat.modelConfigs()` gives them. */
    readonly models: readonly (ModelConfig & { readonly label: string })[];
    readonly stored: StoredInputs;
    readonly clock: Clock;
  }) {
    this.#models = options.models;
    this.#stored = options.stored;
    this.#clock = options.clock;
  }

  /** The model `id` names, or undefined when it names none. */
  model(id: string): (ModelConfig & { readonly label: string }) | undefined {
    return /^\d+$/.test(id) ? this.#models[Number(id)] : undefined;
  }

  /** The models that take a user's own key, with whether `userId` keeps one for each. */
  async list(userId: string): Promise<ModelKeyView[]> {
    const views: ModelKeyView[] = [];
    for (const [index, model] of this.#models.entries()) {
      if (model.keyFrom !== 'user') continue;
      views.push({
        id: String(index),
        label: model.label,
        endpoint: new URL(model.baseURL).host,
        kept: (await this.#stored.get(this.#keyOf(userId, model))) !== undefined,
        fromEnvironment: model.apiKey !== undefined,
      });
    }
    return views;
  }

  /** Keeps `key` (sealed) as `owner`'s for the endpoint of model `id`, replacing theirs; the model must take one. */
  async keep(owner: ModelKeyOwner, model: ModelConfig & { readonly label: string }, key: string): Promise<void> {
    await this.#stored.set(this.#keyOf(owner.userId, model), key, this.#audit(owner, model, 'kept'));
  }

  /** Forgets `owner`'s key for the model's endpoint; true when one was kept. */
  async forget(owner: ModelKeyOwner, model: ModelConfig & { readonly label: string }): Promise<boolean> {
    return this.#stored.clear(this.#keyOf(owner.userId, model), this.#audit(owner, model, 'forgotten'));
  }

  /**
   * The key a turn of `userId` sends to `model`: their own when the model takes one and they keep one, else the
   * environment's (undefined when there is neither).
   */
  async keyFor(userId: string, model: ModelConfig): Promise<string | undefined> {
    if (model.keyFrom !== 'user') return model.apiKey;
    return (await this.#stored.get(this.#keyOf(userId, model))) ?? model.apiKey;
  }

  #keyOf(userId: string, model: ModelConfig): StoredInputKey {
    const endpoint = createHash('sha256').update(endpointOf(model)).digest('hex').slice(0, 16);
    return { userId, source: MODEL_KEYS_SOURCE, inputId: `model-key:${endpoint}` };
  }

  #audit(
    owner: ModelKeyOwner,
    model: ModelConfig & { readonly label: string },
    action: 'kept' | 'forgotten',
  ): AuditEventInput {
    return {
      type: 'model.key',
      at: this.#clock.now(),
      userId: owner.userId,
      workspaceId: owner.workspaceId,
      conversationId: null,
      serverId: null,
      tool: null,
      argsHash: null,
      riskTier: null,
      invocationId: null,
      data: { action, model: model.label, endpoint: new URL(model.baseURL).host },
    };
  }
}
