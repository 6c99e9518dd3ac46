import { SdkError } from '@modelcontextprotocol/client';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeAll,
  connectHttp,
  freshLogPath,
  readCallLog,
  startHttpServer,
  TOOL_NAMES,
  waitForLogLine,
} from './testing/demo-harness.js';
import type { Negotiation } from './testing/demo-harness.js';

afterEach(closeAll);

function firstText(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

describe('the demo server over Streamable HTTP', () => {
  it('prints exactly one line to stderr, "listening http://127.0.0.1:PORT/mcp", once it is ready', async () => {
    const { url, stderr } = await startHttpServer();
    expect(url.port).not.toBe('0');
    const client = await connectHttp(url, { negotiation: 'legacy' });
    await client.callTool({ name: 'echo', arguments: { text: 'quiet' } });
    expect(stderr()).toBe(`listening http://127.0.0.1:${url.port}/mcp\n`);
  });

  it('answers 404 off /mcp and refuses a foreign Origin', async () => {
    const { url } = await startHttpServer();
    expect((await fetch(new URL('/other', url))).status).toBe(404);
    const foreign = await fetch(url, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
  });

  describe.each<Negotiation>(['legacy', 'auto'])('negotiating %s', (negotiation) => {
    it('lists every tool and echoes', async () => {
      const { url } = await startHttpServer();
      const client = await connectHttp(url, { negotiation });
      expect(client.getProtocolEra()).toBe(negotiation === 'legacy' ? 'legacy' : 'modern');
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'over http' } }))).toBe('over http');
    });

    it('asks the user through a form, also for a 2025 client (sessions, not the stateless fallback)', async () => {
      const { url } = await startHttpServer();
      const client = await connectHttp(url, { negotiation, capabilities: { elicitation: { form: {}, url: {} } } });
      client.setRequestHandler('elicitation/create', (request) =>
        request.params.mode === 'url' ? { action: 'decline' } : { action: 'accept', content: { name: 'Bo' } },
      );
      const form = await client.callTool({ name: 'ask_user', arguments: {} });
      expect(firstText(form)).toBe('The user answered the form with action "accept" and content {"name":"Bo"}.');
      const link = await client.callTool({ name: 'connect_account', arguments: {} });
      expect(firstText(link)).toMatch(/^The user declined to open https:\/\/example\.com\/connect\?session=/);
    });

    it('streams progress from slow_task', async () => {
      const { url } = await startHttpServer();
      const client = await connectHttp(url, { negotiation });
      const steps: number[] = [];
      await client.callTool(
        { name: 'slow_task', arguments: { steps: 2, stepMs: 5 } },
        { onprogress: ({ progress }) => steps.push(progress) },
      );
      expect(steps).toEqual([1, 2]);
    });

    it('tells the call log when the client cancels a hanging call', async () => {
      const log = freshLogPath();
      const { url } = await startHttpServer({ log });
      const client = await connectHttp(url, { negotiation });
      const controller = new AbortController();
      const call = client.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal });
      await waitForLogLine(log, (line) => line.event === 'call' && line.tool === 'hang');
      controller.abort();
      await expect(call).rejects.toBeInstanceOf(SdkError);
      await waitForLogLine(log, (line) => line.event === 'cancelled' && line.tool === 'hang');
      expect(readCallLog(log)).toEqual([
        { event: 'call', tool: 'hang', args: {} },
        { event: 'cancelled', tool: 'hang' },
      ]);
    });

    it('announces a changed definition with a list_changed the client sees', async () => {
      const { url } = await startHttpServer();
      let seen: (tools: Tool[] | null) => void = () => {};
      const refreshed = new Promise<Tool[] | null>((resolve) => (seen = resolve));
      const client = await connectHttp(url, {
        negotiation,
        listChanged: { tools: { onChanged: (_error, tools) => seen(tools) } },
      });
      const changed = await client.callTool({ name: 'change_definition', arguments: {} });
      const description = (await refreshed)?.find((tool) => tool.name === 'shape_shifter')?.description;
      expect(description).toBe(firstText(changed));
      expect(description).toContain('definition version 2');
    });

    it('pages tools/list with --page-size 3', async () => {
      const { url } = await startHttpServer({ args: ['--page-size', '3'] });
      const client = await connectHttp(url, { negotiation });
      const first = await client.request({ method: 'tools/list', params: {} });
      expect(first.tools).toHaveLength(3);
      expect(first.nextCursor).toEqual(expect.any(String));
      expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    });
  });
});
