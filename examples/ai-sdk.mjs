// Airlock under the AI SDK: generateText with the AI SDK's own mock model, which calls one tool the user allows and
// one a rule denies. Run it with `node examples/ai-sdk.mjs` (Node 20.19 or newer) after
// `npm install @airlock/core @airlock/ai-sdk @airlock/demo-server ai@6`. Swap the mock for a real model to use it.
import { fileURLToPath } from 'node:url';
import { createHost } from '@airlock/core';
import { airlockTools } from '@airlock/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const server = fileURLToPath(new URL('bin.js', import.meta.resolve('@airlock/demo-server')));
const scope = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' };

const host = createHost({
  servers: { mcpServers: { demo: { command: process.execPath, args: [server] } } },
  permissions: { rules: [{ effect: 'deny', server: 'demo', tool: 'delete_note' }] },
  surface: {
    // Your UI asks the user here; this one says yes once and shows what it was asked.
    askPermission: async (request) => {
      console.log(`asked: may the model call ${request.tool.name}? yes, once`);
      return 'allow_once';
    },
  },
});
await host.servers.settled();

// What a provider would answer: two tool calls, then words once it has their results.
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'demo__echo', input: '{"text":"hello"}' },
        { type: 'tool-call', toolCallId: 'call_2', toolName: 'demo__delete_note', input: '{"id":"1"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'I echoed your text; deleting the note was not allowed.' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    },
  ],
});

const result = await generateText({
  model,
  prompt: 'Echo "hello", then delete note 1.',
  tools: airlockTools(host, { scope }), // every tool the model may see, each call through the host
  stopWhen: stepCountIs(3),
});

for (const step of result.steps) {
  for (const { toolCallId, output } of step.toolResults) console.log(`${toolCallId}: ${output.outcome}`);
}
console.log(`model: ${result.text}`);
// History keeps each call under the model's own id for it.
for (const call of await host.history.list({ scope }))
  console.log(`history: ${call.modelCallId} ${call.tool} ${call.outcome}`);

await host.close();
