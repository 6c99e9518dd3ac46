import { asSchema, generateText, simulateReadableStream, stepCountIs, streamText } from 'ai';
import type { ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { airlockTools } from './airlock-tools.js';
import type { AirlockToolOutput } from './airlock-tools.js';
import { SCOPE, startDemoHost } from './demo-host-fixture.js';
import type { DemoHost } from './demo-host-fixture.js';

let demo: DemoHost | undefined;
afterEach(async () => {
  await demo?.close();
  demo = undefined;
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A scripted model: first it calls echo and delete_note, then it answers in words. */
function scriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call-echo-1',
            toolName: 'demo__echo',
            input: '{"text":"hi from the model"}',
          },
          { type: 'tool-call', toolCallId: 'call-delete-1', toolName: 'demo__delete_note', input: '{"id":"1"}' },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'Echoed; the delete was refused.' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
}

/** Runs a governed tool as the AI SDK does: execute with the model's call id and a signal. */
function execute(tools: ToolSet, name: string, input: unknown, toolCallId: string, abortSignal?: AbortSignal) {
  const run = tools[name]?.execute;
  if (run === undefined) throw new Error(`no tool ${name}`);
  return run(input, {
    toolCallId,
    messages: [],
    ...(abortSignal === undefined ? {} : { abortSignal }),
  }) as Promise<AirlockToolOutput>;
}

describe('airlockTools: the host as AI SDK tools', () => {
  it("runs a governed call (asked once) and a denied one through generateText, keeping the model's call ids", async () => {
    demo = await startDemoHost();
    const { host, surface } = demo;
    const model = scriptedModel();

    const result = await generateText({
      model,
      prompt: 'echo something, then delete note 1',
      tools: airlockTools(host, { scope: SCOPE }),
      stopWhen: stepCountIs(3),
    });

    expect(result.text).toBe('Echoed; the delete was refused.');
    // The surface was asked once, for echo; the rule denied delete_note without asking, and nothing reached the server.
    expect(surface.requests.map((request) => request.tool.name)).toEqual(['demo__echo']);
    expect(demo.received().map((call) => call.tool)).toEqual(['echo']);

    const calls = await host.history.list({ scope: SCOPE });
    const byModelId = new Map(calls.map((call) => [call.modelCallId, call]));
    expect(byModelId.get('call-echo-1')).toMatchObject({ tool: 'demo__echo', outcome: 'success' });
    expect(byModelId.get('call-delete-1')).toMatchObject({
      tool: 'demo__delete_note',
      outcome: 'permission_denied',
      caller: { kind: 'model' },
    });

    // The model's second turn got the host's bounded text for each call, the denial as an error.
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
    const outputs = new Map(
      (toolMessage?.content ?? []).flatMap((part) =>
        part.type === 'tool-result' ? [[part.toolCallId, part.output]] : [],
      ),
    );
    expect(outputs.get('call-echo-1')).toMatchObject({
      type: 'text',
      value: expect.stringContaining('hi from the model'),
    });
    expect(outputs.get('call-delete-1')).toMatchObject({
      type: 'error-text',
      value: expect.stringMatching(
        /^\[permission_denied: tool "Delete note" from server "demo"\].* denied by host rule/,
      ),
    });
  });

  it('runs the same governed and denied calls through streamText', async () => {
    demo = await startDemoHost();
    const { host, surface } = demo;
    const finish = (unified: 'tool-calls' | 'stop') => ({
      type: 'finish' as const,
      finishReason: { unified, raw: undefined },
      usage,
    });
    const model = new MockLanguageModelV3({
      doStream: [
        {
          stream: simulateReadableStream({
            chunks: [
              { type: 'stream-start', warnings: [] },
              { type: 'tool-call', toolCallId: 'stream-echo', toolName: 'demo__echo', input: '{"text":"streamed"}' },
              { type: 'tool-call', toolCallId: 'stream-delete', toolName: 'demo__delete_note', input: '{"id":"2"}' },
              finish('tool-calls'),
            ],
          }),
        },
        {
          stream: simulateReadableStream({
            chunks: [
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'done' },
              { type: 'text-end', id: 't' },
              finish('stop'),
            ],
          }),
        },
      ],
    });

    const result = streamText({
      model,
      prompt: 'echo, then delete note 2',
      tools: airlockTools(host, { scope: SCOPE }),
      stopWhen: stepCountIs(3),
    });

    expect(await result.text).toBe('done');
    const outcomes = (await result.steps).flatMap((step) =>
      step.toolResults.map((r) => [r.toolCallId, (r.output as AirlockToolOutput).outcome]),
    );
    expect(outcomes.sort()).toEqual([
      ['stream-delete', 'permission_denied'],
      ['stream-echo', 'success'],
    ]);
    expect(surface.requests).toHaveLength(1);
    expect(demo.received().map((call) => call.tool)).toEqual(['echo']);
    const kept = (await host.history.list({ scope: SCOPE })).map((call) => call.modelCallId).sort();
    expect(kept).toEqual(['stream-delete', 'stream-echo']);
  });

  it('offers exactly the tools the model may see, with their descriptions and schemas', async () => {
    demo = await startDemoHost();
    const tools = airlockTools(demo.host, { scope: SCOPE });
    const listed = demo.host.tools.list({ audience: 'model', scope: SCOPE });

    expect(Object.keys(tools).sort()).toEqual(listed.map((tool) => tool.name).sort());
    const echo = listed.find((tool) => tool.name === 'demo__echo');
    expect(tools['demo__echo']?.description).toBe(echo?.description);
    expect(await asSchema(tools['demo__echo']?.inputSchema).jsonSchema).toEqual(echo?.inputSchema);
  });

  it('follows the host tool list: a tool registered later is in the same set at the next read', async () => {
    demo = await startDemoHost();
    const tools = airlockTools(demo.host, { scope: SCOPE });
    expect('clock' in tools).toBe(false);

    demo.host.tools.register({
      name: 'clock',
      description: 'Tells the time.',
      inputSchema: { type: 'object' },
      run: () => Promise.resolve({ content: [{ type: 'text', text: 'noon' }] }),
    });

    expect(Object.keys(tools)).toContain('clock');
    expect(await execute(tools, 'clock', {}, 'call-clock')).toMatchObject({ outcome: 'success', isError: false });
  });

  it("cancels the call when the AI SDK's abort signal fires", async () => {
    demo = await startDemoHost();
    const { host } = demo;
    const tools = airlockTools(host, { scope: SCOPE });
    const controller = new AbortController();
    const off = host.on('invocation.transition', ({ invocation }) => {
      if (invocation.state === 'running') controller.abort();
    });

    const output = await execute(tools, 'demo__slow_task', { steps: 50, stepMs: 200 }, 'call-slow', controller.signal);
    off();

    expect(output).toMatchObject({ outcome: 'cancelled', isError: true });
    const entry = await host.history.get({ scope: SCOPE, invocationId: output.invocationId });
    expect(entry?.invocation.modelCallId).toBe('call-slow');
  });
});
