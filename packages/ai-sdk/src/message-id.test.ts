import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { airlockTools } from './airlock-tools.js';
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

/** A model that calls echo once, then answers. */
function echoingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-echo', toolName: 'demo__echo', input: '{"text":"hi"}' }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'Echoed.' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
}

describe("airlockTools and the turn's message id", () => {
  it('keeps every call of the turn under the message id the application gives, beside the model’s call id', async () => {
    demo = await startDemoHost();
    const { host } = demo;
    await generateText({
      model: echoingModel(),
      prompt: 'echo hi',
      tools: airlockTools(host, { scope: SCOPE, messageId: 'ui-msg-42' }),
      stopWhen: stepCountIs(2),
    });

    const [call] = await host.history.list({ scope: SCOPE });
    expect(call).toMatchObject({ tool: 'demo__echo', messageId: 'ui-msg-42', modelCallId: 'call-echo' });
  });

  it('keeps none when the application gives none', async () => {
    demo = await startDemoHost();
    const { host } = demo;
    await generateText({
      model: echoingModel(),
      prompt: 'echo hi',
      tools: airlockTools(host, { scope: SCOPE }),
      stopWhen: stepCountIs(2),
    });

    const [call] = await host.history.list({ scope: SCOPE });
    expect(call?.modelCallId).toBe('call-echo');
    expect(call).not.toHaveProperty('messageId');
  });
});
