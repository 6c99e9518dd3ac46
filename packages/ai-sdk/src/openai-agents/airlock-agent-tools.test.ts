import { RunContext } from '@openai/agents';
import type { FunctionTool, Tool } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPE, startDemoHost } from '../demo-host-fixture.js';
import type { DemoHost } from '../demo-host-fixture.js';
import { airlockAgentTools } from './airlock-agent-tools.js';

let demo: DemoHost | undefined;
afterEach(async () => {
  await demo?.close();
  demo = undefined;
});

function named(tools: Tool[], name: string): FunctionTool {
  const found = tools.find((t) => t.type === 'function' && t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found as FunctionTool;
}

/** Runs a tool as the Agents runner does: the model's arguments as JSON text, and its function call item. */
function invoke(tool: FunctionTool, args: unknown, callId: string): Promise<unknown> {
  const text = JSON.stringify(args);
  return tool.invoke(new RunContext(), text, {
    toolCall: { type: 'function_call', callId, name: tool.name, arguments: text },
  });
}

describe('airlockAgentTools: the host as OpenAI Agents tools', () => {
  it('offers the model-visible tools as non-strict function tools with their JSON Schemas', async () => {
    demo = await startDemoHost();
    const tools = airlockAgentTools(demo.host, { scope: SCOPE });
    const listed = demo.host.tools.list({ audience: 'model', scope: SCOPE });

    expect(tools.map((t) => t.name).sort()).toEqual(listed.map((t) => t.name).sort());
    const echo = named(tools, 'demo__echo');
    expect(echo.strict).toBe(false);
    expect(echo.parameters).toEqual(listed.find((t) => t.name === 'demo__echo')?.inputSchema);
  });

  it("runs a call the surface allows once, keeping the run's call_id, and tells the agent of a denied one", async () => {
    demo = await startDemoHost();
    const { host, surface } = demo;
    const tools = airlockAgentTools(host, { scope: SCOPE });

    const echoed = await invoke(named(tools, 'demo__echo'), { text: 'from an agent' }, 'call_agent_echo');
    const denied = await invoke(named(tools, 'demo__delete_note'), { id: '1' }, 'call_agent_delete');

    expect(echoed).toEqual(expect.stringContaining('from an agent'));
    expect(denied).toEqual(expect.stringMatching(/^\[permission_denied: tool "Delete note"/));
    expect(surface.requests.map((request) => request.tool.name)).toEqual(['demo__echo']);
    expect(demo.received().map((call) => call.tool)).toEqual(['echo']);
    const calls = await host.history.list({ scope: SCOPE });
    expect(calls.map((call) => [call.modelCallId, call.outcome]).sort()).toEqual([
      ['call_agent_delete', 'permission_denied'],
      ['call_agent_echo', 'success'],
    ]);
  });
});
