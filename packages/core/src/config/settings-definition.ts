import type { KeySchema } from './key-schema.js';

/**
 * The settings sections of `airlock.config.json` beside the servers, permissions and store: `limits`, `console`,
 * `model`, `retention` and `audit`, each key with its type, range and default as the readers check them
 * (`readLimits`/`readConsole`/`readModel` in the console, `readRetentionSettings` in core). Part of the one
 * definition in `config-definition.ts`; kept here so that file stays about servers and permissions.
 */

const positive = (description: string): KeySchema => ({ type: 'number', exclusiveMinimum: 0, description });
const ms = (description: string, fallback?: number): KeySchema =>
  positive(`${description}, in milliseconds.${fallback === undefined ? '' : ` Default ${fallback}.`}`);

/** Bounds and timeouts that also apply per tool (`limits.tools.<host tool name>`). */
export const TOOL_LIMIT_KEYS: Readonly<Record<string, KeySchema>> = {
  modelChars: positive(
    'Characters of text the model is given per result, the untrusted-data frame included. Default 25000.',
  ),
  modelMedia: {
    type: 'boolean',
    description:
      'Pass image and audio blocks to the model (otherwise a placeholder naming type and size). Default false.',
  },
  screenChars: positive('Characters of one text block the screen carries; the rest is read on demand. Default 100000.'),
  screenMediaBytes: positive('Bytes of one image, audio or blob the screen carries inline. Default 5 MiB.'),
  maxResultBytes: positive('The whole result as JSON, in bytes; a larger result fails the call. Default 64 MiB.'),
  timeoutMs: ms('Idle timeout of a call, reset by each progress report', 60_000),
  maxTotalMs: ms('Ceiling of a call that no progress extends', 600_000),
  elicitationTimeoutMs: ms("How long a server's question waits for the user before it closes with cancel", 300_000),
};

/** Keys of `limits` (the console refuses any other). */
export const LIMITS_KEYS: Readonly<Record<string, KeySchema>> = {
  ...TOOL_LIMIT_KEYS,
  taskMaxTotalMs: ms('Ceiling of a call of a tool that runs as a task (long work by design)', 14_400_000),
  connectTimeoutMs: ms('How long connecting to a server (spawn, handshake, first tools/list) may take', 20_000),
  maxMessageBytes: positive('Largest single message accepted from a stdio server, in bytes. Default 72 MiB.'),
  reconnectBaseDelayMs: ms('First delay before reconnecting to a lost server; doubles per attempt', 250),
  reconnectMaxDelayMs: ms('Longest delay between reconnect attempts', 10_000),
  reconnectAttempts: {
    type: 'integer',
    minimum: 0,
    description: 'Reconnect attempts after a ready server is lost, before it is marked failed. Default 6.',
  },
  maxTenantConnections: {
    type: 'integer',
    minimum: 1,
    description:
      'Most connections a server per user or workspace keeps open at once; the least recently used idle one makes room. Default 32.',
  },
  tenantIdleMs: ms('How long a per-user or per-workspace connection may sit unused before it closes', 600_000),
  commitIntervalMs: {
    type: 'number',
    minimum: 0,
    description: 'Least time between two history commits; calls in between share one transaction. Default 5.',
  },
  tools: {
    type: 'object',
    additionalProperties: { type: 'object', properties: TOOL_LIMIT_KEYS, additionalProperties: false },
    description: 'Per-tool overrides of the bounds and timeouts, keyed by host tool name (demo__slow_task).',
  },
};

/** Keys of `console` (the web console: where it listens and who signs in). */
export const CONSOLE_KEYS: Readonly<Record<string, KeySchema>> = {
  port: { type: 'integer', minimum: 0, maximum: 65535, description: 'The port; 0 picks a free one. Default 7410.' },
  host: {
    type: 'string',
    minLength: 1,
    description: 'The address listened on. Default 127.0.0.1; any other than loopback needs auth "token".',
  },
  auth: {
    type: 'string',
    enum: ['local', 'token'],
    description: '"local" (default): a name is enough, loopback only. "token": each user signs in with a secret.',
  },
  users: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          pattern: '^[A-Za-z0-9._@-]{1,64}$',
          description: 'The user id (1-64 letters, digits, ".", "_", "@" or "-").',
        },
        tokenSha256: {
          type: 'string',
          pattern: '^[0-9a-f]{64}$',
          description: "The sha256 of the user's token, 64 lowercase hex digits (the token itself is never stored).",
        },
        admin: {
          type: 'boolean',
          description:
            "An administrator: sees servers' command lines, URLs and stderr, switches servers off and on, and hides " +
            'a tool from the model for the whole workspace. Default false (with auth "local" the one user is one).',
        },
        workspaces: {
          type: 'array',
          items: { type: 'string', pattern: '^(\\*|[A-Za-z0-9._@-]{1,64})$' },
          description:
            'The workspaces the user may sign in to or switch to ("*": any). Default ["default"]. With auth "local" ' +
            'any workspace is open.',
        },
      },
      required: ['id', 'tokenSha256'],
      additionalProperties: false,
    },
    description: 'Who may sign in when auth is "token" (at least one).',
  },
  allowedHosts: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    description: 'Off loopback: the "host:port" names the page may be reached by (DNS rebinding); absent, any.',
  },
  publicUrl: {
    type: 'string',
    format: 'uri',
    description:
      'The address users reach the console by (e.g. https://airlock.example.com behind a proxy): where remote ' +
      "servers' sign-in sends them back, over https the console's OAuth client metadata document, and the origin " +
      "that alone may frame the MCP Apps views' sandbox proxy (whose host name it gives, unless viewProxyUrl is set).",
  },
  viewProxyPort: {
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    description:
      "The port of the MCP Apps views' sandbox proxy, another origin than the page's; 0 (default) picks a free one.",
  },
  viewProxyUrl: {
    type: 'string',
    format: 'uri',
    pattern: '^https?://[^/]+/?$',
    description:
      "The origin users reach the views' sandbox proxy at behind a proxy (e.g. https://views.airlock.example.com); " +
      "never the console's own. Default: the console's host name (publicUrl's, else the page's) with viewProxyPort.",
  },
  metrics: {
    type: 'object',
    properties: {
      prometheus: { type: 'boolean', description: 'Serve GET /metrics in the Prometheus text format (default false).' },
      tokenSha256: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description:
          'The sha256 of the bearer token a scraper off this machine presents; without it, /metrics answers ' +
          'loopback peers only.',
      },
    },
    required: ['prometheus'],
    additionalProperties: false,
    description: "The console's metrics endpoint: off unless prometheus is true.",
  },
};

/** Keys of `model` (the chat box's OpenAI-compatible endpoint). */
export const MODEL_KEYS: Readonly<Record<string, KeySchema>> = {
  baseURL: {
    type: 'string',
    pattern: '^https?://',
    description: 'An OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio); AIRLOCK_MODEL_BASE_URL wins.',
  },
  model: { type: 'string', minLength: 1, description: 'The model name; AIRLOCK_MODEL wins.' },
  apiKeyEnv: {
    type: 'string',
    minLength: 1,
    description: 'The environment variable holding the API key (default AIRLOCK_MODEL_API_KEY); never the key itself.',
  },
  keyFrom: {
    enum: ['env', 'user'],
    description:
      'Where the key comes from: "env" (default) the environment only; "user" each user may keep their own in the ' +
      "page, sealed in the store, used instead of the environment's.",
  },
  choices: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        label: { type: 'string', minLength: 1, description: 'What the page calls it (default: the model name).' },
        model: { type: 'string', minLength: 1, description: 'The model name.' },
        baseURL: {
          type: 'string',
          pattern: '^https?://',
          description: "Another OpenAI-compatible endpoint (default: the model's own).",
        },
        apiKeyEnv: {
          type: 'string',
          minLength: 1,
          description: "The variable holding this endpoint's key (default: the model's, on the same endpoint).",
        },
        keyFrom: {
          enum: ['env', 'user'],
          description:
            '"user": each user may keep their own key for this endpoint in the page (default: the model\'s).',
        },
      },
      required: ['model'],
      additionalProperties: false,
    },
    description: 'Further models the chat offers in the page beside the default one, each sent its own messages.',
  },
};

const days = (what: string, fallback: string): KeySchema => ({
  type: ['number', 'null'],
  exclusiveMinimum: 0,
  description: `Days ${what} are kept; null keeps them forever. Default ${fallback}.`,
});

/** The windows a workspace may set for itself. */
const WINDOW_KEYS: Readonly<Record<string, KeySchema>> = {
  results: days('whole results (the full text; the bounded payloads stay with the row)', '7'),
  history: days('history rows (a call, its transitions, what is left of its result)', '90'),
};

/** Keys of `retention`. */
export const RETENTION_KEYS: Readonly<Record<string, KeySchema>> = {
  ...WINDOW_KEYS,
  audit: days('audit events (pruned behind a checkpoint, so the chain still verifies)', '400'),
  conversations: days('chat conversations (since they were last updated)', 'null (kept)'),
  expiredDecisions: days('stored permission decisions past their expiry (counted from it)', '30'),
  workspaces: {
    type: 'object',
    additionalProperties: { type: 'object', properties: WINDOW_KEYS, additionalProperties: false },
    description: "A workspace's own windows, keyed by workspace id; a kind it leaves out takes the host's.",
  },
  sweepEveryMs: ms('How often the sweep runs after the one at start', 3_600_000),
  batch: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    description: 'Rows per transaction of a sweep. Default 200.',
  },
};

/** Keys of `audit`. */
export const AUDIT_KEYS: Readonly<Record<string, KeySchema>> = {
  anchorFile: {
    type: 'string',
    minLength: 1,
    description: 'An NDJSON file, outside the data directory, that the chain head is appended to.',
  },
  anchorEveryMs: ms('Anchor the chain head this often (needs anchorFile)'),
};

/** One settings section: an object of exactly these keys. */
export function settingsSection(
  properties: Readonly<Record<string, KeySchema>>,
  description: string,
  type: string | string[] = 'object',
): KeySchema {
  return { type, properties, additionalProperties: false, description };
}
