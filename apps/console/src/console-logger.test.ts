import { describe, expect, it } from 'vitest';
import { createConsoleLogger, demoServers, startConsole } from '@airlock/console';
import type { ConsoleConfig } from '@airlock/console';

// The built console (it serves its page from dist): `npm run build` comes first, as for api.test.ts.

describe('the console log', () => {
  it('tells its lifecycle and its servers as JSON lines with a level and a message', async () => {
    const written: string[] = [];
    const logger = createConsoleLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } });
    const config: ConsoleConfig = {
      source: 'log test',
      servers: demoServers(),
      rules: [],
      limits: {},
      storePath: ':memory:',
      host: '127.0.0.1',
      port: 0,
      auth: 'local',
      users: [],
      retention: {},
    };
    const running = await startConsole(config, { logger });
    await running.host.servers.settled();
    await running.close();

    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) {
      expect(typeof line['level']).toBe('string');
      expect(typeof line['msg']).toBe('string');
    }
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'console listening', url: running.url }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ level: 'info', serverId: 'demo', state: 'ready' }));
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'console stopped', url: running.url });
  });

  it('censors fields that could hold arguments or secrets', () => {
    const written: string[] = [];
    const logger = createConsoleLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } });
    logger.info({ args: { token: 'sk-live' }, request: { headers: { authorization: 'Bearer sk-live' } } }, 'x');
    expect(written.join('')).not.toContain('sk-live');
  });
});
