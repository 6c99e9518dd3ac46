import { Buffer } from 'node:buffer';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** One page of a list and, when more follow, the opaque cursor to the next page. */
export interface ToolPage<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

/**
 * Cuts one page out of `items`, starting where `cursor` points (the start when absent). Without a `pageSize` the
 * page runs to the end. A cursor this server did not mint is a JSON-RPC -32602 error, as the spec asks.
 */
export function toolPage<T>(options: { items: readonly T[]; cursor?: string; pageSize?: number }): ToolPage<T> {
  const { items, cursor, pageSize } = options;
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  if (start === undefined || start > items.length) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
  }
  const end = pageSize === undefined ? items.length : Math.min(items.length, start + pageSize);
  return end < items.length
    ? { items: items.slice(start, end), nextCursor: encodeCursor(end) }
    : { items: items.slice(start) };
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
  const match = /^offset:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
