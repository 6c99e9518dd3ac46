import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createConsoleLogger, startConsole } from '@airlock/console';
import type { ConsoleConfig } from '@airlock/console';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// The built console (it serves its page from dist): `npm run build` comes first, as for api.test.ts.

describe('the console log', () => {
  it('tells its lifecycle and its servers as JSON lines with a level and a message', async () => {
    const written: string[] = [];
    const logger = createConsoleLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } });
    const config: ConsoleConfig = memoryConsoleConfig('log test');
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

  it('puts the trace_id and span_id of the active span on a line written inside it, and none outside', async () => {
    // What the OpenTelemetry Node SDK registers: the active span follows the async work it started.
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const tracer = new BasicTracerProvider().getTracer('test');
      const written: string[] = [];
      const logger = createConsoleLogger({
        level: 'info',
        destination: { write: (line: string) => written.push(line) },
      });
      const ids = await tracer.startActiveSpan('request', async (span) => {
        await Promise.resolve();
        logger.info('inside');
        span.end();
        return span.spanContext();
      });
      logger.info('outside');

      const [inside, outside] = written.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(inside).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId, trace_flags: '01' });
      expect(outside).not.toHaveProperty('trace_id');
      expect(outside).not.toHaveProperty('span_id');
    } finally {
      manager.disable();
      context.disable();
    }
  });
});
