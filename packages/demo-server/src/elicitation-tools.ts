import { randomUUID } from 'node:crypto';
import { inputRequired, inputResponse, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool, textResult, toolError } from './demo-tool.js';
import type { DemoTool, DemoToolContext, DemoToolResult } from './demo-tool.js';

const PROFILE_FORM: Omit<ElicitRequestFormParams, 'mode'> = {
  message: 'Tell the demo server who you are. It only repeats your answer back.',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', description: 'What should the demo call you?' },
      age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    },
    required: ['name'],
  },
};

const CONNECT_MESSAGE = 'Connect your example.com account to the demo server (a placeholder page: nothing is linked).';

/**
 * Tools that need the user: a form (`ask_user`) and a URL to open out of band (`connect_account`).
 *
 * Both eras are served from one handler where the SDK allows it: the handler returns `inputRequired(...)`; on
 * 2026-07-28 the client fulfils it and retries the call, on 2025-11-25 the SDK's legacy shim sends a real
 * `elicitation/create` request and re-enters the handler with the answer.
 */
export const elicitationTools: readonly DemoTool[] = [
  defineTool({
    name: 'ask_user',
    title: 'Ask the user',
    description: 'Asks the user for their name and age through a form, and says what came back.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (_args, { request }) => {
      const answer = inputResponse(request.mcpReq.inputResponses, 'profile');
      if (answer.kind === 'missing') {
        return inputRequired({ inputRequests: { profile: inputRequired.elicit(PROFILE_FORM) } });
      }
      if (answer.kind !== 'elicit') return toolError(`ask_user expected a form answer, got a ${answer.kind} response.`);
      const content = answer.content === undefined ? 'no content' : `content ${JSON.stringify(answer.content)}`;
      return textResult(`The user answered the form with action "${answer.action}" and ${content}.`);
    },
  }),
  defineTool({
    name: 'connect_account',
    title: 'Connect account',
    description: 'Asks the user to open a URL to connect an account (URL-mode elicitation), and says what happened.',
    input: z.object({}),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    run: (_args, context) => (context.era === 'legacy' ? connectPushed(context) : connectInBand(context)),
  }),
  defineTool({
    name: 'ask_briefly',
    title: 'Ask briefly',
    description: 'Asks the user a form question but gives up after timeoutMs: the server cancels its own question.',
    input: z.object({
      timeoutMs: z.number().int().min(1).max(3_600_000).default(300),
      hostTimeoutMs: z
        .number()
        .optional()
        .describe('How long the host should keep the question open, sent as _meta["airlock/timeoutMs"].'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ timeoutMs, hostTimeoutMs }, { request, era }) => {
      if (era !== 'legacy')
        return toolError('ask_briefly needs the 2025-11-25 era, where the server sends the question.');
      const meta = hostTimeoutMs === undefined ? {} : { _meta: { 'airlock/timeoutMs': hostTimeoutMs } };
      try {
        const answer = await request.mcpReq.elicitInput(
          { mode: 'form', ...PROFILE_FORM, ...meta },
          { timeout: timeoutMs },
        );
        // The host says why it cancelled (a timeout) in the answer's _meta: the demo repeats it.
        const reason = answer._meta?.['airlock/reason'];
        const why = typeof reason === 'string' ? ` (reason: ${reason})` : '';
        return textResult(`The user answered in time with action "${answer.action}"${why}.`);
      } catch (error) {
        return textResult(`The server stopped waiting for an answer: ${(error as Error).message}`);
      }
    },
  }),
  defineTool({
    name: 'connect_required',
    title: 'Connect required',
    description:
      'Refuses with -32042 (a URL to open first) until an account is connected; the connection completes shortly after.',
    input: z.object({
      completeAfterMs: z
        .number()
        .int()
        .min(0)
        .max(600_000)
        .default(50)
        .describe('How long the user takes in the browser: the flow completes this many ms after the refusal.'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    run: ({ completeAfterMs }, { server, state }) => {
      if (state.accountConnected) return textResult('Connected: the call went through after the URL flow.');
      const elicitationId = randomUUID();
      // The demo has no real page: it marks the account connected and says so a moment later, as a real server
      // would once the user finished in the browser.
      setTimeout(() => {
        state.accountConnected = true;
        void server
          .createElicitationCompletionNotifier(elicitationId)()
          .catch(() => undefined);
      }, completeAfterMs).unref();
      throw new UrlElicitationRequiredError(
        [{ mode: 'url', message: CONNECT_MESSAGE, url: connectUrl(), elicitationId }],
        'Connect your account first.',
      );
    },
  }),
];

/**
 * 2025-11-25: a pushed `elicitation/create` carrying an `elicitationId`, then `notifications/elicitation/complete`
 * once the user accepted. Not through the legacy shim, because the shim mints an `elicitationId` the handler never
 * sees, so it could not announce completion.
 */
async function connectPushed({ request, server }: DemoToolContext): Promise<DemoToolResult> {
  const url = connectUrl();
  const elicitationId = randomUUID();
  let answer: ElicitResult;
  try {
    answer = await request.mcpReq.elicitInput({ mode: 'url', message: CONNECT_MESSAGE, url, elicitationId });
  } catch (error) {
    return toolError(`connect_account could not ask for the URL: ${(error as Error).message}`);
  }
  if (answer.action === 'accept') {
    await server.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: request.mcpReq.id })();
  }
  return textResult(connectOutcome(answer.action, url));
}

/** 2026-07-28: an input-required round; the URL rides in `requestState` so the retry can name it. */
function connectInBand({ request }: DemoToolContext): DemoToolResult {
  const answer = inputResponse(request.mcpReq.inputResponses, 'connect');
  if (answer.kind === 'missing') {
    const url = connectUrl();
    return inputRequired({
      inputRequests: { connect: inputRequired.elicitUrl({ message: CONNECT_MESSAGE, url }) },
      requestState: url,
    });
  }
  if (answer.kind !== 'elicit') {
    return toolError(`connect_account expected a URL answer, got a ${answer.kind} response.`);
  }
  // requestState came back through the client: shown as text only, never trusted for anything else.
  return textResult(connectOutcome(answer.action, request.mcpReq.requestState<string>() ?? 'the connect page'));
}

function connectUrl(): string {
  return `https://example.com/connect?session=${randomUUID()}`;
}

function connectOutcome(action: ElicitResult['action'], url: string): string {
  switch (action) {
    case 'accept':
      return `Account connected: the user accepted and opened ${url}.`;
    case 'decline':
      return `The user declined to open ${url}; no account was connected.`;
    case 'cancel':
      return `The user dismissed the request to open ${url}; no account was connected.`;
  }
}
