import { z } from 'zod';
import type { DemoState } from './demo-state.js';
import { defineTool, textResult } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';

function shapeShifterDescription(state: DemoState): string {
  return `Echoes the text it is given (definition version ${state.shapeVersion}).`;
}

/**
 * Tools about the server itself: a tool whose definition changes at runtime, the tool that changes it (list_changed
 * and definition pinning), and the call counts.
 */
export const stateTools: readonly DemoTool[] = [
  defineTool({
    name: 'shape_shifter',
    title: 'Shape shifter',
    description: shapeShifterDescription,
    input: z.object({ text: z.string().describe('The text to send back.') }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run: ({ text }) => textResult(text),
  }),
  defineTool({
    name: 'change_definition',
    title: 'Change definition',
    description: "Changes shape_shifter's description and tells clients the tool list changed.",
    input: z.object({}),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (_args, { state, toolsChanged }) => {
      state.bumpShapeVersion();
      toolsChanged();
      return textResult(shapeShifterDescription(state));
    },
  }),
  defineTool({
    name: 'stats',
    title: 'Call statistics',
    description: 'Counts the calls each tool received since the server started (stats itself not counted).',
    input: z.object({}),
    output: z.object({ calls: z.record(z.string(), z.number().int()) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (_args, { state }) => {
      const calls = Object.fromEntries(Object.entries(state.callCounts()).filter(([tool]) => tool !== 'stats'));
      return { content: [{ type: 'text', text: JSON.stringify({ calls }) }], structuredContent: { calls } };
    },
  }),
];
