import { generateText, stepCountIs } from 'ai';
import type { ModelMessage, ToolApprovalResponse } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { airlockTools } from './airlock-tools.js';
import { recordDenials } from './app-approval.js';
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

/** The model calls echo and write_note (asked of the user) and search_notes (a rule allows it), then answers. */
function scriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [
          { type: 'tool-call', toolCallId: 'call-echo', toolName: 'demo__echo', input: '{"text":"approved"}' },
          {
            type: 'tool-call',
            toolCallId: 'call-write',
            toolName: 'demo__write_note',
            input: '{"id":"7","text":"overwritten"}',
          },
          { type: 'tool-call', toolCallId: 'call-search', toolName: 'demo__search_notes', input: '{"query":"a"}' },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'Echoed; you refused the write.' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
}

/** The audit log's permission decision for a call, by the model's id for it. */
async function decisionFor(demo: DemoHost, modelCallId: string) {
  const call = (await demo.host.history.list({ scope: SCOPE })).find((c) => c.modelCallId === modelCallId);
  if (call === undefined) return undefined;
  const events = await demo.host.audit.query({ scope: SCOPE, invocationId: call.id });
  return { outcome: call.outcome, ...events.find((event) => event.type === 'permission.decision')?.data };
}

describe("airlockTools with consent: 'app' (the AI SDK's own approval flow)", () => {
  it('asks through the AI SDK where the host would ask, runs the approved call once and records the denied one', async () => {
    demo = await startDemoHost({
      permissions: {
        rules: [
          { effect: 'allow', server: 'demo', tool: 'search_notes' },
          { effect: 'deny', server: 'demo', tool: 'delete_note' },
        ],
      },
    });
    const { host, surface } = demo;
    const model = scriptedModel();
    const tools = airlockTools(host, { scope: SCOPE, consent: 'app' });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'echo, write note 7, search' }];

    const first = await generateText({ model, messages: prompt, tools, stopWhen: stepCountIs(3) });

    // The rule-allowed search ran at once; echo and write_note wait for the user, nothing of them sent yet.
    const asked = first.content.flatMap((part) => (part.type === 'tool-approval-request' ? [part] : []));
    expect(asked.map((request) => request.toolCall.toolCallId).sort()).toEqual(['call-echo', 'call-write']);
    expect(demo.received().map((call) => call.tool)).toEqual(['search_notes']);

    // The user approves echo and denies write_note in the app's UI.
    const answers: ToolApprovalResponse[] = asked.map((request) => ({
      type: 'tool-approval-response',
      approvalId: request.approvalId,
      approved: request.toolCall.toolCallId === 'call-echo',
    }));
    const messages: ModelMessage[] = [...prompt, ...first.response.messages, { role: 'tool', content: answers }];
    const denied = await recordDenials(host, { scope: SCOPE }, messages);
    const second = await generateText({ model, messages, tools, stopWhen: stepCountIs(3) });

    expect(second.text).toBe('Echoed; you refused the write.');
    expect(denied.map((result) => result.outcome)).toEqual(['permission_denied']);
    // Echo ran once; write_note never reached the server; the host's surface was never asked.
    expect(demo.received().map((call) => call.tool)).toEqual(['search_notes', 'echo']);
    expect(surface.requests).toEqual([]);
    expect(await decisionFor(demo, 'call-echo')).toMatchObject({
      outcome: 'success',
      decision: 'allow_once',
      origin: 'user_prompt',
      via: 'approval',
      by: 'ai-sdk',
    });
    expect(await decisionFor(demo, 'call-write')).toMatchObject({
      outcome: 'permission_denied',
      decision: 'deny_once',
      via: 'approval',
      by: 'ai-sdk',
    });
    expect(await decisionFor(demo, 'call-search')).toMatchObject({
      outcome: 'success',
      decision: 'allow',
      origin: 'rule',
    });
    expect((await host.audit.verify()).ok).toBe(true);
  });

  it('needs no approval for a tool a rule allows or denies, and asks for one the host would ask about', async () => {
    demo = await startDemoHost({
      permissions: {
        rules: [
          { effect: 'allow', server: 'demo', tool: 'search_notes' },
          { effect: 'deny', server: 'demo', tool: 'delete_note' },
        ],
      },
    });
    const tools = airlockTools(demo.host, { scope: SCOPE, consent: 'app' });
    const needs = async (name: string, input: unknown) => {
      const check = tools[name]?.needsApproval;
      return typeof check === 'function' ? await check(input, { toolCallId: 'c', messages: [] }) : check;
    };

    expect(await needs('demo__search_notes', { query: 'a' })).toBe(false);
    expect(await needs('demo__delete_note', { id: '1' })).toBe(false);
    expect(await needs('demo__echo', { text: 'x' })).toBe(true);
    // The default leaves every question to the host's surface.
    expect(airlockTools(demo.host, { scope: SCOPE })['demo__echo']?.needsApproval).toBeUndefined();
  });

  it('records a denial once when given the same messages twice, as a retried request would', async () => {
    demo = await startDemoHost();
    const messages: ModelMessage[] = [
      { role: 'user', content: 'write note 7' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'call-write', toolName: 'demo__write_note', input: { id: '7', text: 'x' } },
          { type: 'tool-approval-request', approvalId: 'approval-1', toolCallId: 'call-write' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-1', approved: false }] },
    ];

    const first = await recordDenials(demo.host, { scope: SCOPE }, messages);
    const again = await recordDenials(demo.host, { scope: SCOPE }, messages);

    expect(first.map((result) => result.outcome)).toEqual(['permission_denied']);
    expect(again).toEqual([]);
    const recorded = await demo.host.history.list({ scope: SCOPE, modelCallId: 'call-write' });
    expect(recorded.map((call) => call.id)).toEqual([first[0]?.invocationId]);
    const decisions = (await demo.host.audit.query({ scope: SCOPE })).filter((e) => e.type === 'permission.decision');
    expect(decisions).toHaveLength(1);
    expect(demo.received()).toEqual([]);
  });

  it('records nothing when the last message answers no approval', async () => {
    demo = await startDemoHost();
    const none = await recordDenials(demo.host, { scope: SCOPE }, [{ role: 'user', content: 'hello' }]);
    expect(none).toEqual([]);
    expect(await demo.host.history.list({ scope: SCOPE })).toEqual([]);
  });
});
