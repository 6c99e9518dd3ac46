import { Buffer } from 'node:buffer';
import { z } from 'zod';
import { demoBlob, demoPng, demoWav } from './demo-media.js';
import { SEED_NOTES } from './demo-state.js';
import { defineTool } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';
import { hugeText } from './huge-text.js';

const MARKDOWN = [
  '## Rich content',
  '',
  'This result carries **six** blocks: text, an image, audio, a resource link and two embedded resources.',
  '',
  '```ts',
  "const greeting: string = 'hello from the demo server';",
  '```',
].join('\n');

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const [shoppingList, meetingNotes] = SEED_NOTES;

/** Tools whose results test how a host shows and bounds content. */
export const contentTools: readonly DemoTool[] = [
  defineTool({
    name: 'rich_content',
    title: 'Rich content',
    description:
      'Returns one block of every content type: text, image, audio, resource link and two embedded resources.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: () => ({
      content: [
        { type: 'text', text: MARKDOWN },
        { type: 'image', data: base64(demoPng()), mimeType: 'image/png' },
        { type: 'audio', data: base64(demoWav()), mimeType: 'audio/wav' },
        {
          type: 'resource_link',
          uri: 'demo://notes/1',
          name: shoppingList?.title ?? 'note 1',
          mimeType: 'text/plain',
          size: Buffer.byteLength(shoppingList?.text ?? ''),
        },
        {
          type: 'resource',
          resource: { uri: 'demo://notes/2', mimeType: 'text/markdown', text: meetingNotes?.text ?? '' },
        },
        {
          type: 'resource',
          resource: {
            uri: 'demo://files/blob.bin',
            mimeType: 'application/octet-stream',
            blob: base64(demoBlob()),
          },
        },
      ],
    }),
  }),
  defineTool({
    name: 'huge_output',
    title: 'Huge output',
    description: 'Returns one text block of exactly megabytes × 1,000,000 characters of numbered lines.',
    input: z.object({
      megabytes: z.number().min(0).max(80).default(5).describe('Millions of characters to return (default 5, max 80).'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run: ({ megabytes }) => ({ content: [{ type: 'text', text: hugeText(Math.round(megabytes * 1_000_000)) }] }),
  }),
];
