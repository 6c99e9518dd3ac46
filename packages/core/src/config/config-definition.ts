/**
 * The one definition of `airlock.config.json`: every key we know, its JSON Schema type and what it is for. The
 * runtime check (`unknown-keys.ts`: which keys exist, "did you mean") and the JSON Schema shipped as
 * `@airlock/core/config-schema.json` (what editors complete and check) are both derived from it, so they cannot drift.
 * Value checks stay in the readers (`parseServersConfig`, `parseRulesText`, the surfaces' own sections), which give
 * the precise messages; the schema's types mirror them.
 */
import { GATEWAY_KEYS } from './gateway-definition.js';
import type { KeySchema } from './key-schema.js';
import {
  AUDIT_KEYS,
  CONSOLE_KEYS,
  LIMITS_KEYS,
  MODEL_KEYS,
  RETENTION_KEYS,
  settingsSection,
} from './settings-definition.js';

const stringMap = (description: string): KeySchema => ({
  type: 'object',
  additionalProperties: { type: 'string' },
  description,
});

/** Keys of one server entry (`mcpServers.<id>`), as Claude Desktop, VS Code and Cursor write them plus ours. */
export const SERVER_KEYS: Readonly<Record<string, KeySchema>> = {
  command: { type: 'string', minLength: 1, description: 'The program to start (stdio server).' },
  args: { type: 'array', items: { type: 'string' }, description: 'Arguments given to the command.' },
  env: stringMap('Environment variables for the command; hashed into the server identity, never stored in clear.'),
  cwd: { type: 'string', description: 'Working directory for the command.' },
  url: { type: 'string', format: 'uri', description: 'Streamable HTTP endpoint (http or https); excludes command.' },
  headers: stringMap('HTTP headers sent with every request (e.g. Authorization).'),
  type: {
    type: 'string',
    enum: ['stdio', 'http', 'sse', 'streamable-http', 'streamableHttp'],
    description:
      'stdio (command), http (Streamable HTTP) or sse (the legacy HTTP+SSE transport); must agree with command or ' +
      'url. Without it, a url tries Streamable HTTP and falls back to SSE.',
  },
  envFile: {
    type: 'string',
    description: 'A dotenv file (NAME=value) for the command, relative to this file; env wins over it.',
  },
  trusted: { type: 'boolean', description: "Believe this server's tool annotations (default false: hints only)." },
  negotiation: {
    type: 'string',
    enum: ['legacy', 'auto'],
    description: '"legacy" speaks 2025-11-25; "auto" probes for 2026-07-28 first.',
  },
  disabled: { type: 'boolean', description: 'Listed but never started.' },
  maxDefinitionChars: {
    type: 'integer',
    minimum: 200,
    description:
      "The most characters of a tool's description this host takes from the server (default 8000; schema texts an " +
      'eighth of it, schemas eight times it); raise it for a trusted server with longer definitions.',
  },
  isolation: {
    type: 'string',
    enum: ['shared', 'user', 'workspace'],
    description:
      'Who shares a connection: everyone, each user or each workspace. Default: user for an HTTP server with oauth, ' +
      'shared otherwise (an HTTP server with no credentials of its own turns per user once it asks for sign-in).',
  },
  oauth: {
    type: 'object',
    properties: {
      grant: {
        type: 'string',
        enum: ['authorization_code', 'client_credentials'],
        description:
          'authorization_code (default): each user signs in; client_credentials: the host signs in as itself.',
      },
      clientId: {
        type: 'string',
        minLength: 1,
        description: 'A client registered in advance with the authorization server.',
      },
      clientSecret: { type: 'string', minLength: 1, description: "That client's secret, when it has one." },
      scopes: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Scopes to ask for at sign-in.' },
      privateKeyFile: {
        type: 'string',
        minLength: 1,
        description: "private_key_jwt: the client's private key, a PEM file (relative to this file).",
      },
      privateKey: {
        type: 'string',
        minLength: 1,
        description: "private_key_jwt: the client's private key in PEM (e.g. ${env:NAME}); or privateKeyFile.",
      },
      privateKeyAlgorithm: {
        type: 'string',
        enum: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'],
        description: "The private key's signing algorithm (default RS256).",
      },
    },
    additionalProperties: false,
    description: 'OAuth 2.1 sign-in to an HTTP server; discovery finds the authorization server.',
  },
};

const glob = (what: string): KeySchema => ({ type: 'string', minLength: 1, description: `A glob over ${what}.` });

/** Keys of one permission rule (`permissions.rules[i]`, or a `--rules` file's); any other key is an error. */
export const RULE_KEYS: Readonly<Record<string, KeySchema>> = {
  effect: { type: 'string', enum: ['allow', 'deny', 'ask'], description: 'What the rule does to a call it matches.' },
  layer: {
    type: 'string',
    enum: ['host', 'workspace', 'user'],
    description: "Whose rule it is (default host): host outranks workspace, which outranks a user's own.",
  },
  kind: {
    type: 'string',
    enum: ['tool', 'resource'],
    description: 'What the rule governs (default tool): tool calls, or resource reads (match them with uri).',
  },
  server: glob('the server id'),
  uri: glob('the URI of a resource read (a resource rule only)'),
  tool: glob("the tool's own name"),
  name: glob('the host tool name (demo__*)'),
  workspaceId: { type: 'string', minLength: 1, description: 'A workspace rule applies in this workspace only.' },
  userId: { type: 'string', minLength: 1, description: 'A user rule applies to this user only.' },
  risk: { type: 'string', enum: ['low', 'medium', 'high'], description: 'Overrides the risk of the tools it matches.' },
};

/** Keys of `permissions`. */
export const PERMISSIONS_KEYS: Readonly<Record<string, KeySchema>> = {
  rules: {
    type: 'array',
    items: { type: 'object', properties: RULE_KEYS, required: ['effect'], additionalProperties: false },
    description: 'Allow/deny/ask rules matching a server, tool or risk; see docs/gate.md, Permissions.',
  },
  expiryDays: {
    type: 'object',
    properties: Object.fromEntries(
      ['low', 'medium', 'high'].map((tier) => [
        tier,
        {
          type: ['number', 'null'],
          exclusiveMinimum: 0,
          description: `Days a ${tier}-risk grant lasts; null: never expires.`,
        },
      ]),
    ),
    additionalProperties: false,
    description: 'How long a remembered decision lasts, per risk tier.',
  },
  unannotatedRisk: {
    type: 'string',
    enum: ['low', 'medium', 'high'],
    description:
      "The risk assumed for a trusted server's tools that carry no annotations. Default high: MCP's defaults " +
      "(may modify data), so allow always is withheld; medium or low offer it. Untrusted servers' stay high.",
  },
};

const serversMap = (description: string): KeySchema => ({
  type: 'object',
  propertyNames: { minLength: 1 },
  additionalProperties: { $ref: '#/$defs/server' },
  description,
});

/** One of VS Code's `inputs`, referenced as `${input:ID}`. */
const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$', description: 'Referenced as ${input:ID}.' },
    type: {
      type: 'string',
      enum: ['promptString', 'pickString'],
      description: 'promptString: typed (masked with password); pickString: chosen from options.',
    },
    description: { type: 'string', description: 'What the user is asked.' },
    password: { type: 'boolean', description: 'Mask the value as it is typed (promptString).' },
    options: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'The values offered (pickString).' },
    default: { type: 'string', description: 'The value offered first.' },
  },
  required: ['id', 'type'],
  description: 'A value asked of the user once and kept sealed in their vault.',
};

/** Top-level keys. `servers` is VS Code's name for `mcpServers`. */
export const TOP_LEVEL_KEYS: Readonly<Record<string, KeySchema>> = {
  $schema: { type: 'string', description: 'The JSON Schema this file follows (for editors).' },
  mcpServers: serversMap(
    'The servers, keyed by name (any text; the id in tool names is its slug: "Brave Search" is brave_search).',
  ),
  servers: serversMap("VS Code's name for mcpServers; read when mcpServers is absent."),
  inputs: {
    type: 'array',
    items: INPUT_SCHEMA,
    description: "VS Code's inputs: values asked of the user once, used in server strings as ${input:ID}.",
  },
  permissions: {
    type: 'object',
    properties: PERMISSIONS_KEYS,
    description: 'Permission rules and how long decisions last.',
  },
  limits: settingsSection(LIMITS_KEYS, 'Bounds, timeouts and connection limits of the host (the console reads them).'),
  store: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The SQLite history file, or ":memory:" (keeps nothing).' },
      url: {
        type: 'string',
        pattern: '^postgres(ql)?://',
        description:
          'A PostgreSQL database (postgres://user@host/db) shared by several instances; excludes path. ' +
          'AIRLOCK_DATABASE_URL in the environment takes precedence.',
      },
    },
    description: 'Where history is kept: { "path": FILE or ":memory:" } (SQLite, the default) or { "url": ... }.',
  },
  console: settingsSection(CONSOLE_KEYS, 'The web console: where it listens and who may sign in.'),
  gateway: settingsSection(GATEWAY_KEYS, 'Who may call through the HTTP gateway (airlock gateway --http, /mcp).'),
  model: settingsSection(
    MODEL_KEYS,
    "The console's chat model; the API key comes from the environment, never the file.",
  ),
  retention: settingsSection(
    RETENTION_KEYS,
    'How long results, history and audit events are kept (the console and airlock retention); null keeps everything.',
    ['object', 'null'],
  ),
  audit: settingsSection(AUDIT_KEYS, "Anchoring the audit chain's head in a file outside the data directory."),
};

/** The JSON Schema (draft 2020-12) of `airlock.config.json`, generated from the definition above. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://airlock.dev/schema/airlock.config.schema.json',
    title: 'airlock.config.json',
    description: 'Servers, permissions and settings of an Airlock host (comments and trailing commas allowed).',
    type: 'object',
    properties: TOP_LEVEL_KEYS,
    additionalProperties: true,
    $defs: {
      server: {
        type: 'object',
        properties: SERVER_KEYS,
        additionalProperties: true,
        description: 'One server: command (stdio) or url (HTTP).',
      },
    },
  };
}
