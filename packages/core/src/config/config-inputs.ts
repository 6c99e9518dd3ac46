import { HostError } from '../errors/host-error.js';

/**
 * One of VS Code's `inputs`: a value the user is asked for once (`promptString`, masked when `password`) or picks
 * from a list (`pickString`), referenced as `${input:ID}` in a server's strings.
 */
export interface ConfigInput {
  readonly id: string;
  readonly type: 'promptString' | 'pickString';
  readonly description?: string;
  readonly password?: boolean;
  /** `pickString` only: the values offered. */
  readonly options?: readonly string[];
  readonly default?: string;
}

/** What the host asks for when a server needs an input: the input, the server and the config it came from. */
export interface InputRequest {
  readonly input: ConfigInput;
  readonly serverId: string;
  /** The config file (or source) that declares the input: stored values are bound to it. */
  readonly source: string;
  /** The tenant of the connection (`userId/workspaceId`), for a server per user or per workspace. */
  readonly tenant?: string;
}

/**
 * Gives the values of `${input:ID}` when a server starts: a stored value, or one asked of the user where someone can
 * be asked. `undefined` means no value: the server does not start, and its error says `howToSet`.
 */
export interface InputResolver {
  value(request: InputRequest): Promise<string | undefined>;
  /** How a user gives the input a value, e.g. `airlock inputs set api-key`. */
  howToSet(input: ConfigInput): string;
}

const INPUT_ID = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads a config's `inputs` array. Every problem is refused through `fail` with the index and field at fault;
 * `promptString` and `pickString` are read, VS Code's `command` inputs are refused (they run an editor command).
 */
export function parseConfigInputs(
  value: unknown,
  fail: (path: readonly (string | number)[], problem: string) => never,
): ConfigInput[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail(['inputs'], 'must be an array of inputs');
  const seen = new Set<string>();
  return value.map((raw: unknown, i): ConfigInput => {
    const at = (field?: string) => (field === undefined ? ['inputs', i] : ['inputs', i, field]);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(at(), 'must be an object');
    const o = raw as Record<string, unknown>;
    const id = o['id'];
    if (typeof id !== 'string' || !INPUT_ID.test(id)) {
      return fail(at('id'), 'must be a string of letters, digits, ".", "_" or "-"');
    }
    if (seen.has(id)) fail(at('id'), `"${id}" is declared twice`);
    seen.add(id);
    const type = o['type'];
    if (type !== 'promptString' && type !== 'pickString') {
      return fail(at('type'), `must be "promptString" or "pickString" (input "${id}")`);
    }
    for (const field of ['description', 'default'] as const) {
      if (o[field] !== undefined && typeof o[field] !== 'string') fail(at(field), 'must be a string');
    }
    if (o['password'] !== undefined && typeof o['password'] !== 'boolean')
      fail(at('password'), 'must be true or false');
    const options = o['options'];
    if (type === 'pickString') {
      const ok =
        Array.isArray(options) &&
        options.length > 0 &&
        options.every((x) => typeof x === 'string' || (typeof x === 'object' && x !== null && 'value' in x));
      if (!ok) fail(at('options'), 'must be a non-empty array of strings (pickString)');
    }
    return {
      id,
      type,
      ...(o['description'] === undefined ? {} : { description: o['description'] as string }),
      ...(o['password'] === true ? { password: true } : {}),
      ...(type === 'pickString'
        ? {
            options: (options as unknown[]).map((x) =>
              typeof x === 'string' ? x : String((x as { value: unknown }).value),
            ),
          }
        : {}),
      ...(o['default'] === undefined ? {} : { default: o['default'] as string }),
    };
  });
}

/** The error of a server whose input has no value: the input, what it is for, and how to give it one. */
export function inputMissingError(serverId: string, input: ConfigInput, resolver?: InputResolver): HostError {
  const what = input.description === undefined ? '' : ` (${input.description})`;
  const how = resolver?.howToSet(input) ?? 'this host has no way to ask for inputs';
  return new HostError(
    'input_required',
    `server "${serverId}" needs input "${input.id}"${what}, which has no value: ${how}`,
    { data: { serverId, inputId: input.id } },
  );
}
