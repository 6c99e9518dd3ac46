import { z } from 'zod';
import type { DemoNote } from './demo-state.js';
import { defineTool, textResult } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';

const SearchResults = z.object({
  results: z.array(z.object({ id: z.string(), title: z.string() })),
});

/** The notebook tools: one read-only, one idempotent write and one destructive delete, as the host's risk cases. */
export const noteTools: readonly DemoTool[] = [
  defineTool({
    name: 'search_notes',
    title: 'Search notes',
    description: 'Finds notes whose title or text contains the query (case-insensitive).',
    input: z.object({
      query: z.string().describe('Words to look for.'),
      limit: z.number().int().min(1).max(50).optional().describe('Most results to return (default 10).'),
    }),
    output: SearchResults,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ query, limit = 10 }, { state }) => {
      const needle = query.toLowerCase();
      const matches = [...state.notes.values()]
        .filter((note) => `${note.title}\n${note.text}`.toLowerCase().includes(needle))
        .slice(0, limit);
      const results = matches.map(({ id, title }) => ({ id, title }));
      const lines = results.map((note) => `- ${note.id}: ${note.title}`);
      return {
        content: [{ type: 'text', text: [`${results.length} note(s) match "${query}"`, ...lines].join('\n') }],
        structuredContent: { results },
      };
    },
  }),
  defineTool({
    name: 'write_note',
    title: 'Write note',
    description: 'Creates or replaces the note with this id.',
    input: z.object({ id: z.string().min(1).describe('The note id.'), text: z.string().describe('The whole note.') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: ({ id, text }, { state }) => {
      const previous = state.notes.get(id);
      const note: DemoNote = {
        id,
        title: previous?.title ?? titleOf(text, id),
        text,
        mimeType: previous?.mimeType ?? 'text/plain',
      };
      state.notes.set(id, note);
      return textResult(`${previous === undefined ? 'Created' : 'Replaced'} note ${id} (${text.length} characters).`);
    },
  }),
  defineTool({
    name: 'delete_note',
    title: 'Delete note',
    description: 'Deletes the note with this id, for good.',
    input: z.object({ id: z.string().min(1).describe('The note id.') }),
    annotations: { readOnlyHint: false, destructiveHint: true },
    run: ({ id }, { state }) =>
      textResult(state.notes.delete(id) ? `Deleted note ${id}.` : `There is no note ${id}; nothing was deleted.`),
  }),
];

function titleOf(text: string, id: string): string {
  const firstLine =
    text
      .split('\n', 1)[0]
      ?.replace(/^#+\s*/, '')
      .trim() ?? '';
  return firstLine === '' ? `Note ${id}` : firstLine.slice(0, 60);
}
