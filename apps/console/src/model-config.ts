import { fail, objectAt } from './config-fields.js';

/** An OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio) and a model of it that drives the chat. */
export interface ModelConfig {
  readonly baseURL: string;
  readonly model: string;
  /** Read from the environment variable named in the config (never from the file itself). */
  readonly apiKey?: string;
  /**
   * `"user"`: each user may keep their own key for this model's endpoint in the page (sealed in the store), used
   * instead of `apiKey`; without one of theirs, `apiKey` when the environment gives it. Absent: the environment's only.
   */
  readonly keyFrom?: 'user';
}

/** A further model the page offers beside the default one, under its label. */
export interface ModelChoice extends ModelConfig {
  readonly label: string;
}

/** The chat's models as the config names them: the default, and the choices the page offers beside it. */
export interface ChatModels {
  readonly model?: ModelConfig;
  readonly modelChoices?: readonly ModelChoice[];
}

const KEY_IN_FILE = 'is not read from the file: put the key in an environment variable and name it in';

/** The key in the environment variable `apiKeyEnv` names (default `fallback`), when it is set. */
function keyOf(
  section: Readonly<Record<string, unknown>>,
  field: string,
  fallback: string | undefined,
  source: string,
  env: NodeJS.ProcessEnv,
): { apiKey?: string } {
  if ('apiKey' in section) fail(source, `${field}.apiKey`, `${KEY_IN_FILE} ${field}.apiKeyEnv`);
  const name = section['apiKeyEnv'] ?? fallback;
  if (name === undefined) return {};
  if (typeof name !== 'string') fail(source, `${field}.apiKeyEnv`, 'must name an environment variable');
  const apiKey = env[name];
  return apiKey === undefined || apiKey === '' ? {} : { apiKey };
}

/** The section's `keyFrom`: `"user"` lets users keep their own key in the page; `"env"` (the default) does not. */
function keyFromOf(section: Readonly<Record<string, unknown>>, field: string, source: string): { keyFrom?: 'user' } {
  const value = section['keyFrom'];
  if (value === undefined || value === 'env') return {};
  if (value !== 'user') fail(source, `${field}.keyFrom`, 'must be "env" (the environment\'s key only) or "user"');
  return { keyFrom: 'user' };
}

/**
 * The config's `model`: the endpoint and model (`AIRLOCK_MODEL_BASE_URL` and `AIRLOCK_MODEL` win over the file), its
 * key from the environment, and `model.choices`, further models the page offers (each `{ label?, model, baseURL?,
 * apiKeyEnv?, keyFrom? }`, taking the default's endpoint and key unless it names its own). A key written in the file
 * is refused, so a config file never holds one; `keyFrom: "user"` lets each user keep their own in the page instead.
 */
export function readModels(
  json: Readonly<Record<string, unknown>>,
  source: string,
  env: NodeJS.ProcessEnv,
): ChatModels {
  const section = objectAt(json, 'model', source);
  // Refused before anything else, so a key in the file is refused even when no model is configured.
  const key = keyOf(section, 'model', 'AIRLOCK_MODEL_API_KEY', source, env);
  const baseURL = env['AIRLOCK_MODEL_BASE_URL'] ?? section['baseURL'];
  const name = env['AIRLOCK_MODEL'] ?? section['model'];
  if (baseURL === undefined && name === undefined) {
    if (section['choices'] !== undefined) fail(source, 'model.choices', 'needs model.baseURL and model.model first');
    return {};
  }
  if (typeof baseURL !== 'string' || !/^https?:\/\//.test(baseURL)) {
    fail(source, 'model.baseURL', 'must be an http(s) URL (or set AIRLOCK_MODEL_BASE_URL)');
  }
  if (typeof name !== 'string' || name === '') fail(source, 'model.model', 'must name a model (or set AIRLOCK_MODEL)');
  const model: ModelConfig = { baseURL, model: name, ...key, ...keyFromOf(section, 'model', source) };
  const choices = readChoices(section['choices'], model, source, env);
  return { model, ...(choices.length === 0 ? {} : { modelChoices: choices }) };
}

function readChoices(value: unknown, base: ModelConfig, source: string, env: NodeJS.ProcessEnv): ModelChoice[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(source, 'model.choices', 'must be a list of { label, model, baseURL?, apiKeyEnv? }');
  const labels = new Set<string>([base.model]);
  return value.map((entry: unknown, index): ModelChoice => {
    const field = `model.choices[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) fail(source, field, 'must be an object');
    const choice = entry as Record<string, unknown>;
    const model = choice['model'];
    if (typeof model !== 'string' || model === '') fail(source, `${field}.model`, 'must name a model');
    const baseURL = choice['baseURL'] ?? base.baseURL;
    if (typeof baseURL !== 'string' || !/^https?:\/\//.test(baseURL)) {
      fail(source, `${field}.baseURL`, 'must be an http(s) URL');
    }
    const label = choice['label'] ?? model;
    if (typeof label !== 'string' || label.trim() === '') fail(source, `${field}.label`, 'must be text');
    if (labels.has(label)) fail(source, `${field}.label`, `repeats "${label}": each model needs a label of its own`);
    labels.add(label);
    // Its own endpoint takes its own key (or none); the default's endpoint, the default's key unless it names one.
    const own = 'apiKeyEnv' in choice || 'apiKey' in choice || choice['baseURL'] !== undefined;
    const key = own
      ? keyOf(choice, field, undefined, source, env)
      : base.apiKey === undefined
        ? {}
        : { apiKey: base.apiKey };
    // Whether users bring their own key goes with the key: named here, or the default's when it takes the default's.
    const keyFrom =
      own || 'keyFrom' in choice
        ? keyFromOf(choice, field, source)
        : base.keyFrom === undefined
          ? {}
          : { keyFrom: base.keyFrom };
    return { label, baseURL, model, ...key, ...keyFrom };
  });
}
