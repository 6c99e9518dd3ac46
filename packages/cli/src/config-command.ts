import type { LoadedConfig } from './cli-config.js';

/**
 * `airlock config check [FILE]`: the config read as a run would read it (variables expanded, envFile read, inputs
 * declared, names and types checked) without starting a server. An error has already been thrown with its place; on
 * success each server is listed with its id, name, transport and the inputs it needs.
 */
export function configCheck(config: LoadedConfig, stdout: NodeJS.WritableStream): number {
  stdout.write(`${config.source}: ok, ${config.servers.length} server(s)\n`);
  for (const server of config.servers) {
    const name = server.name === undefined ? '' : ` ("${server.name}")`;
    const how =
      server.transport === 'stdio'
        ? 'stdio'
        : server.httpTransport === 'sse'
          ? 'sse'
          : server.httpTransport === 'streamable'
            ? 'http'
            : 'http, falling back to sse';
    const inputs = server.inputs?.declared.map((d) => d.id) ?? [];
    stdout.write(
      `  ${server.id}${name}: ${how}${server.disabled ? ', disabled' : ''}` +
        `${inputs.length === 0 ? '' : `, inputs: ${inputs.join(', ')}`}\n`,
    );
  }
  return 0;
}
