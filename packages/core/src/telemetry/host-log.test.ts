import { describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { logHostEvents } from './host-log.js';
import type { LogSink } from './host-log.js';

const SECRET = 'hunter2-in-the-arguments';

/** A sink that keeps every line as pino would get it. */
function recording() {
  const lines: { level: string; fields: object; message: string }[] = [];
  const at =
    (level: string) =>
    (fields: object, message: string): void => {
      lines.push({ level, fields, message });
    };
  const sink: LogSink = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { sink, lines };
}

describe('logHostEvents', () => {
  it("logs each call's end with its outcome and error code, never its arguments or a message echoing them", async () => {
    const host = createHost({
      store: new MemoryStore(),
      surface: new ScriptedSurface('allow_once'),
      tools: [
        {
          name: 'open_vault',
          inputSchema: { type: 'object', properties: { password: { type: 'string' } } },
          run: (args) => Promise.reject(new Error(`wrong password ${String(args['password'])}`)),
        },
      ],
    });
    const { sink, lines } = recording();
    logHostEvents(host, sink);
    try {
      const result = await host.invoke({
        scope: SCOPE,
        caller: { kind: 'model' },
        tool: 'open_vault',
        args: { password: SECRET },
      });
      expect(result.outcome).toBe('tool_error');
      expect(result.text).toContain(SECRET); // the model is told the tool's own message; the log is not
    } finally {
      await host.close();
    }
    expect(lines).toContainEqual({
      level: 'debug',
      fields: expect.objectContaining({ tool: 'open_vault', outcome: 'tool_error', serverId: null }) as object,
      message: 'call to open_vault ended: tool_error',
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });
});
