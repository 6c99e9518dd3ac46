// The shapes the console's API sends, as the server declares them.
export type { Card, ChatLine, ServerView, Snapshot, ToolEntry } from '../../src/wire.js';
