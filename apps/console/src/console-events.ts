// The console's event stream, typed once for both ends: the server sends through this map and the page handles
// through it, so renaming an event or changing its data fails to compile on both sides. Types only from core: the
// page imports this file too.
import type {
  ElicitationAnswer,
  ElicitationEnd,
  ElicitationRequest,
  HostEventMap,
  PermissionDecision,
  PermissionRequest,
  ServerLogLine,
  ToolProgress,
} from '@airlock/core';
import type { PartialToolInput } from './partial-tool-inputs.js';
import type { Card, ChatLine, ConversationView, Snapshot } from './wire.js';

/** The data of an event that only says "something changed": the page refetches what it shows. */
export type NoData = Readonly<Record<string, never>>;

/** Every event a tab's stream carries, by name, with its data. */
export interface ConsoleEventMap {
  /** The first event of every stream: everything the page draws. */
  state: Snapshot;
  /** Instead of `state` when the snapshot could not be built; the stream ends after it. */
  failure: { readonly code: string; readonly message: string };
  /** A call moved: the record alone while it runs, with its screen payload once it has ended. */
  invocation: Card;
  'invocation.progress': { readonly invocationId: string; readonly progress: ToolProgress };
  'permission.requested': PermissionRequest;
  /** The question was answered (in any tab) or closed unanswered (`decision` null). */
  'permission.closed': { readonly id: string; readonly decision: PermissionDecision | null };
  /** A stored decision was made, revoked or changed. */
  'permissions.changed': NoData;
  'elicitation.requested': ElicitationRequest;
  'elicitation.closed': {
    readonly id: string;
    readonly action: ElicitationAnswer['action'];
    readonly end: ElicitationEnd;
  };
  /** An accepted URL flow finished (the server said so): the page stops showing it. */
  'elicitation.completed': { readonly id: string };
  'chat.line': ChatLine;
  /** Text streamed into a line of a conversation (appended to what it holds). */
  'chat.delta': { readonly conversationId: string; readonly id: number; readonly text: string };
  /**
   * The model is still writing a call's arguments, for a tool with a view: the view is shown and told the arguments
   * read so far (display only; the call, once made, carries `modelCallId` and is the same card).
   */
  'tool.input.partial': PartialToolInput & { readonly conversationId: string };
  /** A conversation's turn began or ended. */
  'chat.turn': { readonly conversationId: string; readonly busy: boolean };
  /** The tenant's conversations changed (one started or renamed): the list as it is now. */
  conversations: { readonly conversations: ConversationView[] };
  /** Sent to every tenant: server states are the same for all. */
  'server.state': HostEventMap['server.state'];
  /** A line a server wrote to stderr or sent as a log notification: to administrators' tabs only. */
  'server.log': { readonly serverId: string; readonly line: ServerLogLine };
  /** Sent to every tenant: the tool catalog changed. */
  'tools.changed': NoData;
  /** A resource someone follows changed on its server (a tenant's own connection: to that tenant only). */
  'resource.updated': { readonly serverId: string; readonly uri: string };
  /** The session moved to another workspace: every tab of it reconnects there. */
  'session.workspace': { readonly workspaceId: string };
  /** The session signed out: the stream ends after this. */
  'session.ended': NoData;
}

/** The name of a console event. */
export type ConsoleEventName = keyof ConsoleEventMap;

/** One event as the page receives it: its name and data, narrowed together by the name. */
export type ConsoleEvent = {
  [E in ConsoleEventName]: { readonly name: E; readonly data: ConsoleEventMap[E] };
}[ConsoleEventName];

/** Every event name, for a page to listen to them all (the check below fails when one is left out). */
export const CONSOLE_EVENT_NAMES = [
  'state',
  'failure',
  'invocation',
  'invocation.progress',
  'permission.requested',
  'permission.closed',
  'permissions.changed',
  'elicitation.requested',
  'elicitation.closed',
  'elicitation.completed',
  'chat.line',
  'chat.delta',
  'tool.input.partial',
  'chat.turn',
  'conversations',
  'server.state',
  'server.log',
  'tools.changed',
  'resource.updated',
  'session.workspace',
  'session.ended',
] as const satisfies readonly ConsoleEventName[];

/** Names of the map missing from the list: none, or this file does not compile (and names the missing one). */
type MissingName = Exclude<ConsoleEventName, (typeof CONSOLE_EVENT_NAMES)[number]>;
const _noneMissing: [MissingName] extends [never] ? true : MissingName = true;
void _noneMissing;
