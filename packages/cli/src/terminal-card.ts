import type { InvocationRecord, ScreenBlock, ScreenPayload, ToolProgress } from '@airlock/core';
import type { Style } from './cli-style.js';
import { PLAIN } from './cli-style.js';

/** Lines of a text block shown before "show more" (shared/DESIGN.md: text past 2,000 characters collapses at 30). */
const COLLAPSE_CHARS = 2_000;
const COLLAPSE_LINES = 30;

const MARK: Record<InvocationRecord['state'], string> = {
  pending: '…',
  running: '▶',
  working: '▶',
  input_required: '?',
  success: '✓',
  error: '✗',
  cancelled: '⊘',
};

/** The header line of a card: mark, tool, server, state (and outcome when it differs), coloured by `style`. */
export function cardHeader(
  invocation: Pick<InvocationRecord, 'state' | 'outcome' | 'originalName' | 'serverId'>,
  style: Style = PLAIN,
): string {
  const { state } = invocation;
  const outcome = invocation.outcome !== null && invocation.outcome !== state ? invocation.outcome : undefined;
  const server = invocation.serverId === null ? 'native' : invocation.serverId;
  const painted = style.state(`${MARK[state]}`, state);
  const ended = `${style.state(state, state)}${outcome === undefined ? '' : ` (${style.state(outcome, outcome)})`}`;
  return `${painted} ${style.strong(invocation.originalName)} · ${server} · ${ended}`;
}

/** The arguments, in full, indented under the header. */
export function cardArguments(args: Readonly<Record<string, unknown>>): string {
  return indent(`args ${JSON.stringify(args, null, 2)}`);
}

/** One progress line. */
export function progressLine(progress: ToolProgress): string {
  const total = progress.total === undefined ? '' : `/${progress.total}`;
  const message = progress.message === undefined ? '' : ` ${progress.message}`;
  return indent(`progress ${progress.progress}${total}${message}`);
}

/**
 * The result as a card shows it: every block in order, long text collapsed unless `full`; the hint to see the rest
 * names the call's id when it is known.
 */
export function cardResult(screen: ScreenPayload, options: { full: boolean; invocationId?: string }): string {
  const hint = `run with --full, or airlock history show ${options.invocationId ?? 'ID'} --full`;
  const parts = screen.blocks.map((block) => blockText(block, options.full, hint));
  if (screen.structuredContent !== undefined) {
    parts.push(`structuredContent ${JSON.stringify(screen.structuredContent, null, 2)}`);
  }
  if (screen.meta !== undefined) parts.push(`_meta ${JSON.stringify(screen.meta)}`);
  return parts.map(indent).join(`\n${indent('────')}\n`);
}

function blockText(block: ScreenBlock, full: boolean, hint: string): string {
  switch (block.type) {
    case 'text':
      return collapse(block.text, block.totalChars, full, hint);
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${formatBytes(block.bytes)}]`;
    case 'resource_link':
      return `[link ${block.title ?? block.name} → ${block.uri}${block.mimeType ? `, ${block.mimeType}` : ''}] (not fetched)`;
    case 'resource':
      if (block.text !== undefined) {
        return `[resource ${block.uri}${block.mimeType ? `, ${block.mimeType}` : ''}]\n${collapse(block.text, block.totalChars ?? block.text.length, full, hint)}`;
      }
      return `[resource ${block.uri}${block.mimeType ? `, ${block.mimeType}` : ''}, ${formatBytes(block.blobBytes ?? 0)} binary]`;
    default:
      return '[content of an unknown type]';
  }
}

function collapse(text: string, totalChars: number, full: boolean, hint: string): string {
  const lines = text.split('\n');
  const long = totalChars > COLLAPSE_CHARS && lines.length > COLLAPSE_LINES;
  const cutByScreen = totalChars > text.length;
  if (full || (!long && !cutByScreen)) return text;
  const shown = long ? lines.slice(0, COLLAPSE_LINES).join('\n') : text;
  const hidden = totalChars - shown.length;
  return `${shown}\n… ${hidden} more characters (${hint})`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
