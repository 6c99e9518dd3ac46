import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool, toolError } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';

/**
 * Tools that go wrong in each way a host must tell apart: a tool-level failure (`isError`), a JSON-RPC error,
 * structuredContent that breaks its outputSchema, and a server that dies mid-call.
 */
export const failureTools: readonly DemoTool[] = [
  defineTool({
    name: 'fail_tool',
    title: 'Failing tool',
    description: 'Always fails as a tool: answers with an isError result the model can read.',
    input: z.object({ reason: z.string().optional().describe('Why it should say it failed.') }),
    run: ({ reason }) => toolError(`fail_tool failed on purpose: ${reason ?? 'no reason given'}.`),
  }),
  defineTool({
    name: 'protocol_error',
    title: 'Protocol error',
    description: 'Always answers with a JSON-RPC error (-32602 Invalid params) instead of a result.',
    input: z.object({}),
    run: () => {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'protocol_error refuses every call with a JSON-RPC error (-32602 Invalid params), on purpose',
      );
    },
  }),
  defineTool({
    name: 'bad_structured',
    title: 'Bad structured output',
    description: 'Declares an outputSchema with a numeric count, then sends a count that is a string.',
    input: z.object({}),
    output: z.object({ count: z.number() }),
    // The demo's dispatcher does not check results against outputSchema, so this goes over the wire as is.
    run: () => ({ content: [{ type: 'text', text: '{"count":"many"}' }], structuredContent: { count: 'many' } }),
  }),
  defineTool({
    name: 'crash',
    title: 'Crash',
    description: 'Kills the server process (exit code 1) before answering: a server dying mid-call.',
    input: z.object({}),
    run: (_args, { exit }) => {
      exit(1);
      return toolError('crash: the process should have exited');
    },
  }),
];
