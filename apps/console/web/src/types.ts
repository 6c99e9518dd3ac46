// The shapes the console's API and event stream send, as the server declares them (one declaration for both ends).
export type { Card, ChatLine, ServerView, Snapshot, ToolEntry } from '../../src/wire.js';
export type { ConsoleEvent, ConsoleEventMap, ConsoleEventName } from '../../src/console-events.js';
