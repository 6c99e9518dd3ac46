import type {
  ElicitationRequest,
  InvocationRecord,
  PermissionRequest,
  RiskAssessment,
  ScreenPayload,
  ServerInfo,
  StoredDecision,
  Tool,
  ToolProgress,
} from '@airlock/core';

/** The shapes the console's API sends (see apps/console/src/invocations.ts). */
export interface Card {
  readonly invocation: InvocationRecord;
  readonly result?: ScreenPayload;
  readonly progress?: ToolProgress;
}

export interface ToolEntry {
  readonly tool: Omit<Tool, 'run'>;
  readonly risk: RiskAssessment;
  readonly decision?: StoredDecision;
}

export type ServerView = ServerInfo;

export interface ChatLine {
  readonly id: number;
  readonly conversationId: string;
  readonly role: 'user' | 'assistant' | 'error';
  readonly text: string;
  readonly at: number;
}

export interface Snapshot {
  readonly session: { readonly userId: string; readonly workspaceId: string };
  readonly conversationId: string;
  readonly servers: ServerView[];
  readonly modelTools: ToolEntry[];
  readonly userTools: ToolEntry[];
  readonly decisions: StoredDecision[];
  readonly cards: Card[];
  readonly permissionRequests: PermissionRequest[];
  readonly elicitations: ElicitationRequest[];
  readonly chat: { readonly configured: boolean; readonly busy: boolean; readonly lines: ChatLine[] };
}
