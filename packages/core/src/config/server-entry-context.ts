import { HostError } from '../errors/host-error.js';
import type { ConfigLocate } from './config-locator.js';
import type { ConfigVariables } from './config-variables.js';
import { expandVariables } from './config-variables.js';

/** What reading one server entry needs: how to refuse a field (with its place) and how to expand a string. */
export interface EntryContext {
  /** The server's name as the config gives it. */
  readonly name: string;
  /** Refuses `field` (its path from the entry: `field` split on "." unless given) with its file:line:col. */
  readonly fail: (field: string, problem: string, path?: readonly (string | number)[]) => never;
  /** The string at `path` (from the entry) with its variables expanded; `${input:ID}` kept and recorded. */
  readonly text: (value: string, path: readonly (string | number)[]) => string;
  /** The ids of the inputs the entry's strings use, in order of first use. */
  readonly inputs: ReadonlySet<string>;
}

/** The context of the entry `name`, whose fields sit at `[...prefix, name, ...]` in the config. */
export function entryContext(options: {
  readonly name: string;
  readonly prefix: readonly string[];
  readonly locate: ConfigLocate;
  readonly variables: ConfigVariables;
  readonly declaredInputs: ReadonlySet<string>;
}): EntryContext {
  const { name, prefix, locate, variables, declaredInputs } = options;
  const inputs = new Set<string>();
  const full = (path: readonly (string | number)[]) => [...prefix, name, ...path];
  const fieldName = (path: readonly (string | number)[]) =>
    path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  const fail = (field: string, problem: string, path?: readonly (string | number)[]): never => {
    const where = locate(full(path ?? field.split('.')));
    throw new HostError('config_invalid', `${where}: server "${name}": ${field} ${problem}`, {
      data: { serverId: name, field },
    });
  };
  const text = (value: string, path: readonly (string | number)[]): string => {
    const expanded = expandVariables(value, variables, declaredInputs, ({ problem, variable, index }) => {
      const where = locate(full(path), { text: variable.slice(0, 2), index });
      const field = fieldName(path);
      throw new HostError('config_invalid', `${where}: server "${name}": ${field}: ${variable} ${problem}`, {
        data: { serverId: name, field, variable },
      });
    });
    for (const id of expanded.inputs) inputs.add(id);
    return expanded.value;
  };
  return { name, fail, text, inputs };
}
