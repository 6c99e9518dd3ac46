import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { defineTool, textResult } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';

/** Tools that take their time: progress, cancellation and timeouts. Both stop as soon as the client aborts. */
export const longRunningTools: readonly DemoTool[] = [
  defineTool({
    name: 'slow_task',
    title: 'Slow task',
    description: 'Works through a number of timed steps, reporting progress after each one.',
    input: z.object({
      steps: z.number().int().min(0).max(10_000).default(5).describe('How many steps (default 5).'),
      stepMs: z.number().int().min(0).max(60_000).default(200).describe('Milliseconds per step (default 200).'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ steps, stepMs }, { request }) => {
      const { signal, notify, _meta } = request.mcpReq;
      const progressToken = _meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await delay(stepMs, undefined, { signal });
        if (progressToken === undefined) continue;
        await notify({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: steps, message: `step ${step} of ${steps}` },
        });
      }
      return textResult(`done after ${steps} steps`);
    },
  }),
  defineTool({
    name: 'hang',
    title: 'Hang',
    description: 'Never answers: waits until the client cancels the call or gives up on it.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (_args, { request }) => {
      const { signal } = request.mcpReq;
      if (!signal.aborted) await once(signal, 'abort');
      throw new Error('hang was cancelled by the client');
    },
  }),
];
