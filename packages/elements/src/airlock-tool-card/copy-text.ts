import type { ScreenBlock, ScreenPayload } from '@airlock/core';

/** JSON as the card shows and copies it: two-space indentation; values JSON cannot hold become their string form. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** What "copy" on one block puts on the clipboard: its whole text, a link's URI; media and blobs have none. */
export function blockCopyText(block: ScreenBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource':
      return block.text;
    case 'resource_link':
      return block.uri;
    default:
      return undefined;
  }
}

/**
 * What "copy" on the whole result puts on the clipboard: the host's full text when it gave one (the screen payload
 * may be cut), else every block's text in order, then the structured content.
 */
export function resultCopyText(result: ScreenPayload, fullText: string | undefined): string {
  if (fullText !== undefined) return fullText;
  const parts = result.blocks.map(blockCopyText).filter((text): text is string => text !== undefined);
  if (result.structuredContent !== undefined) parts.push(prettyJson(result.structuredContent));
  return parts.join('\n\n');
}
