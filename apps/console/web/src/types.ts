// The shapes the console's API sends, as the server declares them.
export type { Card, ChatLine, Snapshot, ToolEntry } from '../../src/wire.js';
export type { ServerInfo as ServerView } from '@airlock/core';
