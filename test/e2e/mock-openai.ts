import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat completion request as the mock received it. */
export interface MockChatRequest {
  readonly model: string;
  readonly messages: readonly { role: string; content?: unknown; tool_calls?: unknown }[];
  readonly tools?: readonly { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
}

/** A scripted step: the model either calls one tool or answers with text. */
export type MockReply =
  | { readonly toolCall: { readonly name: string; readonly arguments: Record<string, unknown> } }
  | { readonly text: (request: MockChatRequest) => string };

/**
 * An OpenAI-compatible chat completions endpoint on loopback that plays a script: the model provider is the one edge
 * the console does not own, so the tests stand one in. Non-streaming `POST /v1/chat/completions` only; every request
 * is kept for assertions.
 */
export async function startMockOpenAI(script: readonly MockReply[]) {
  const requests: MockChatRequest[] = [];
  let step = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MockChatRequest;
      requests.push(request);
      const reply = script[step++];
      const message =
        reply === undefined
          ? { role: 'assistant', content: 'The script has ended.' }
          : 'toolCall' in reply
            ? {
                role: 'assistant',
                content: null,
                tool_calls: [
                  {
                    id: `call_${step}`,
                    type: 'function',
                    function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
                  },
                ],
              }
            : { role: 'assistant', content: reply.text(request) };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${step}`,
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
