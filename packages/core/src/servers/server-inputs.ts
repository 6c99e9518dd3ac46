import { HostError } from '../errors/host-error.js';
import type { InputResolver } from '../config/config-inputs.js';
import { inputMissingError } from '../config/config-inputs.js';
import { fillInputs } from '../config/config-variables.js';
import type { ServerConfig } from './server-config.js';

/**
 * The server's config with every `${input:ID}` filled in from the resolver (a stored value, or one asked of the
 * user). An input with no value refuses the start with `input_required`, naming the input and how to set it.
 */
export async function fillServerInputs(
  config: ServerConfig,
  resolver: InputResolver | undefined,
  tenant?: string,
): Promise<ServerConfig> {
  if (config.inputs === undefined) return config;
  const values = new Map<string, string>();
  for (const input of config.inputs.declared) {
    const value = await resolver?.value({
      input,
      serverId: config.id,
      source: config.inputs.source,
      ...(tenant === undefined ? {} : { tenant }),
    });
    if (value === undefined) throw inputMissingError(config.id, input, resolver);
    values.set(input.id, value);
  }
  const fill = (text: string) => fillInputs(text, values);
  const map = (record: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fill(v)]));
  return config.transport === 'http'
    ? { ...config, url: fill(config.url), headers: map(config.headers) }
    : {
        ...config,
        command: fill(config.command),
        args: config.args.map(fill),
        env: map(config.env),
        ...(config.cwd === undefined ? {} : { cwd: fill(config.cwd) }),
      };
}

/**
 * The last guard before a process starts or a request leaves: a value of the server's config that still holds `${`
 * (a placeholder nothing filled in) refuses the start, so a placeholder is never sent as a credential.
 */
export function assertNoPlaceholders(config: ServerConfig): void {
  const fields: [string, string][] =
    config.transport === 'http'
      ? [['url', config.url], ...Object.entries(config.headers).map(([k, v]): [string, string] => [`headers.${k}`, v])]
      : [
          ['command', config.command],
          ...config.args.map((a, i): [string, string] => [`args[${i}]`, a]),
          ...Object.entries(config.env).map(([k, v]): [string, string] => [`env.${k}`, v]),
          ...(config.cwd === undefined ? [] : [['cwd', config.cwd] as [string, string]]),
        ];
  const left = fields.find(([, value]) => value.includes('${'));
  if (left !== undefined) {
    throw new HostError(
      'config_invalid',
      `server "${config.id}": ${left[0]} still holds a placeholder ("\${"): it is not started with it`,
      { data: { serverId: config.id, field: left[0] } },
    );
  }
}
