import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool, textResult } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';

/** The result with the `traceparent` its request carried under `airlock-demo/traceparent`, when it carried one. */
function withTraceparent(result: CallToolResult, traceparent: unknown): CallToolResult {
  if (typeof traceparent !== 'string') return result;
  return { ...result, _meta: { ...result._meta, 'airlock-demo/traceparent': traceparent } };
}

/** Tools that answer at once and cover the annotation cases, including a tool with no annotations at all. */
export const basicTools: readonly DemoTool[] = [
  defineTool({
    name: 'echo',
    title: 'Echo',
    description: 'Returns the text it is given, unchanged.',
    input: z.object({ text: z.string().describe('The text to send back.') }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // A traced call's trace context comes back in the result's _meta, so a host's test sees the server joined its trace.
    run: ({ text }, { request }) => withTraceparent(textResult(text), request.mcpReq._meta?.['traceparent']),
  }),
  defineTool({
    name: 'run_command',
    title: 'Run command',
    description: 'Pretends to run a shell command (it never executes anything) and says what it would run.',
    input: z.object({ command: z.string().describe('The shell command line.') }),
    // No annotations on purpose: the host must fall back to the spec defaults (destructive, open world).
    run: ({ command }) => textResult(`would run: ${command}`),
  }),
  defineTool({
    name: 'fetch_url',
    title: 'Fetch URL',
    description: 'Pretends to fetch a web page (it never touches the network) and says so.',
    input: z.object({ url: z.string().describe('The address to fetch.') }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    run: ({ url }) => textResult(`Did not fetch ${url}: the demo server never touches the network.`),
  }),
];
