import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat completion request as the mock received it. */
export interface MockChatRequest {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: readonly { role: string; content?: unknown; tool_calls?: unknown }[];
  readonly tools?: readonly { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
}

/**
 * A scripted step: the model either calls one tool (saying `say` first, if given) or answers with text. `hang`: the
 * text streams, then the answer never ends (until the client goes away), as a slow model's would: what Stop is for.
 * `argumentPieces`: streamed, the call's arguments come in these pieces (joined, they must be its JSON), each one
 * sent once `pace` (when given) resolves for it, so a test can see what the client made of the pieces so far.
 */
export type MockReply =
  | {
      readonly toolCall: { readonly name: string; readonly arguments: Record<string, unknown> };
      readonly say?: string;
      readonly argumentPieces?: readonly string[];
      readonly pace?: (piece: number) => Promise<void>;
    }
  | { readonly text: (request: MockChatRequest) => string; readonly hang?: boolean };

/** The text in pieces of a word or so each, as a model streams it. */
const pieces = (text: string) => text.match(/\S+\s*|\s+/g) ?? [''];

/**
 * An OpenAI-compatible chat completions endpoint on loopback that plays a script: the model provider is the one edge
 * the console does not own, so the tests stand one in. `POST /v1/chat/completions`, streamed (server-sent chunks,
 * a word at a time) when the request asks, whole otherwise; every request is kept for assertions, and `aborted`
 * counts the streams a client closed before their end.
 */
export async function startMockOpenAI(script: readonly MockReply[]) {
  const requests: MockChatRequest[] = [];
  /** The Authorization header of each request in `requests`, at the same place (undefined when none was sent). */
  const authorizations: (string | undefined)[] = [];
  const state = { aborted: 0 };
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
      authorizations.push(req.headers.authorization);
      const reply = script[step++];
      const id = `chatcmpl-${step}`;
      const call =
        reply !== undefined && 'toolCall' in reply
          ? {
              id: `call_${step}`,
              type: 'function',
              function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
            }
          : undefined;
      const text =
        reply === undefined ? 'The script has ended.' : 'text' in reply ? reply.text(request) : (reply.say ?? null);
      if (request.stream === true) {
        const pieces = reply !== undefined && 'toolCall' in reply ? reply : undefined;
        void streamReply(res, {
          id,
          model: request.model,
          call,
          text,
          hang: reply !== undefined && 'hang' in reply,
          ...(pieces?.argumentPieces === undefined ? {} : { argumentPieces: pieces.argumentPieces }),
          ...(pieces?.pace === undefined ? {} : { pace: pieces.pace }),
        });
        res.on('close', () => {
          if (!res.writableFinished) state.aborted += 1;
        });
        return;
      }
      const message =
        call === undefined
          ? { role: 'assistant', content: text }
          : { role: 'assistant', content: null, tool_calls: [call] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [{ index: 0, message, finish_reason: call === undefined ? 'stop' : 'tool_calls' }],
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
    authorizations,
    /** How many streamed answers the client closed before they ended. */
    aborted: () => state.aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One answer as server-sent chunks: the text a word at a time, then the tool call if any; then its end (unless it hangs). */
async function streamReply(
  res: ServerResponse,
  reply: {
    id: string;
    model: string;
    call: { id: string; type: string; function: { name: string; arguments: string } } | undefined;
    text: string | null;
    hang: boolean;
    argumentPieces?: readonly string[];
    pace?: (piece: number) => Promise<void>;
  },
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: object, finish: string | null) =>
    res.write(
      `data: ${JSON.stringify({
        id: reply.id,
        object: 'chat.completion.chunk',
        created: 0,
        model: reply.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`,
    );
  if (reply.text !== null) for (const piece of pieces(reply.text)) chunk({ role: 'assistant', content: piece }, null);
  if (reply.call !== undefined && reply.argumentPieces !== undefined) {
    const { id, type, function: fn } = reply.call;
    chunk(
      { role: 'assistant', tool_calls: [{ index: 0, id, type, function: { name: fn.name, arguments: '' } }] },
      null,
    );
    for (const [index, piece] of reply.argumentPieces.entries()) {
      await reply.pace?.(index);
      if (res.destroyed) return;
      chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null);
    }
  } else if (reply.call !== undefined) chunk({ role: 'assistant', tool_calls: [{ index: 0, ...reply.call }] }, null);
  if (reply.hang) return;
  chunk({}, reply.call === undefined ? 'stop' : 'tool_calls');
  res.write('data: [DONE]\n\n');
  res.end();
}
