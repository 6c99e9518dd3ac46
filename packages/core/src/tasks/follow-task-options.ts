import type { Client } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { TaskEra } from '../store/invocation-task.js';
import type { ToolProgress } from '../tools/tool.js';
import type { TaskSnapshot, TaskUpdate } from '../tools/tool-task.js';

/** What following a task needs: where it runs, which task, and whom to tell. */
export interface FollowTaskOptions {
  readonly client: Client;
  readonly clock: Clock;
  readonly serverId: string;
  /** The tool's name on its server, for messages. */
  readonly tool: string;
  /** The task as last known: its id, status, message and the poll interval its server asked for. */
  readonly task: TaskSnapshot;
  /** Aborting cancels the task: `tasks/cancel` is sent. */
  readonly signal: AbortSignal;
  readonly onProgress: (progress: ToolProgress) => void;
  readonly onTask?: (update: TaskUpdate) => void;
  /** The era the task was started in (a resumed task): followed only on a connection of the same era. */
  readonly era?: TaskEra;
}
