import { ToolMessage } from '@langchain/core/messages';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPE, startDemoHost } from '../demo-host-fixture.js';
import type { DemoHost } from '../demo-host-fixture.js';
import { airlockLangChainTools } from './airlock-langchain-tools.js';

let demo: DemoHost | undefined;
afterEach(async () => {
  await demo?.close();
  demo = undefined;
});

function named(tools: DynamicStructuredTool[], name: string): DynamicStructuredTool {
  const found = tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

describe('airlockLangChainTools: the host as LangChain.js tools', () => {
  it('offers the model-visible tools with their descriptions and JSON Schemas', async () => {
    demo = await startDemoHost();
    const tools = airlockLangChainTools(demo.host, { scope: SCOPE });
    const listed = demo.host.tools.list({ audience: 'model', scope: SCOPE });

    expect(tools.map((t) => t.name).sort()).toEqual(listed.map((t) => t.name).sort());
    const echo = listed.find((t) => t.name === 'demo__echo');
    expect(named(tools, 'demo__echo').description).toBe(echo?.description);
    expect(named(tools, 'demo__echo').schema).toEqual(echo?.inputSchema);
  });

  it("answers a tool call with a ToolMessage, keeping the call's id, and marks a denied call as an error", async () => {
    demo = await startDemoHost();
    const { host, surface } = demo;
    const tools = airlockLangChainTools(host, { scope: SCOPE });

    const echoed: unknown = await named(tools, 'demo__echo').invoke({
      type: 'tool_call',
      id: 'call_lc_echo',
      name: 'demo__echo',
      args: { text: 'from langchain' },
    });
    const denied: unknown = await named(tools, 'demo__delete_note').invoke({
      type: 'tool_call',
      id: 'call_lc_delete',
      name: 'demo__delete_note',
      args: { id: '1' },
    });

    expect(echoed).toBeInstanceOf(ToolMessage);
    expect(echoed).toMatchObject({ tool_call_id: 'call_lc_echo', status: 'success' });
    expect((echoed as ToolMessage).text).toContain('from langchain');
    expect(denied).toMatchObject({ tool_call_id: 'call_lc_delete', status: 'error' });
    expect((denied as ToolMessage).text).toMatch(/^\[permission_denied: tool "Delete note"/);
    expect(surface.requests.map((request) => request.tool.name)).toEqual(['demo__echo']);
    expect(demo.received().map((call) => call.tool)).toEqual(['echo']);
    const calls = await host.history.list({ scope: SCOPE });
    expect(calls.map((call) => [call.modelCallId, call.outcome]).sort()).toEqual([
      ['call_lc_delete', 'permission_denied'],
      ['call_lc_echo', 'success'],
    ]);
  });

  it('answers bare arguments with the text, recorded without a model id', async () => {
    demo = await startDemoHost();
    const tools = airlockLangChainTools(demo.host, { scope: SCOPE });

    const text: unknown = await named(tools, 'demo__echo').invoke({ text: 'plain' });

    expect(text).toEqual(expect.stringContaining('plain'));
    const [call] = await demo.host.history.list({ scope: SCOPE });
    expect(call).not.toHaveProperty('modelCallId');
  });
});
