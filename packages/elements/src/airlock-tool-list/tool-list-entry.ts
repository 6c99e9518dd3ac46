import type { RiskAssessment, StoredDecision, Tool } from '@airlock/core';

/**
 * One row of the list: a tool as the registry lists it, its risk, and the user's stored decision when there is one.
 * Whole `Tool`, `RiskAssessment` and `StoredDecision` objects fit as they are; only the fields below are read.
 */
export interface ToolListEntry {
  readonly tool: Pick<Tool, 'name' | 'title' | 'description' | 'origin' | 'visibility'> & {
    readonly annotations?: { readonly title?: string };
  };
  readonly risk: Pick<RiskAssessment, 'tier'> & Partial<Pick<RiskAssessment, 'unverified'>>;
  readonly decision?: Pick<StoredDecision, 'id' | 'effect' | 'expiresAt' | 'conversationId'>;
}

/** The tools of one server (or the application's own, native tools: `serverId` null), in the order given. */
export interface ToolListGroup {
  readonly serverId: string | null;
  readonly entries: readonly ToolListEntry[];
}

/**
 * Groups entries by server, keeping the order in which each server first appears and the order of tools within
 * it: the host decides the order (the list does not sort, so it never disagrees with the host's own listing).
 */
export function groupByServer(entries: readonly ToolListEntry[]): ToolListGroup[] {
  const groups = new Map<string | null, ToolListEntry[]>();
  for (const entry of entries) {
    const key = entry.tool.origin.kind === 'mcp' ? entry.tool.origin.serverId : null;
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  return [...groups].map(([serverId, grouped]) => ({ serverId, entries: grouped }));
}

/**
 * The name a person reads (as `toolDisplayName` in core, which this package may not import at run time): the title,
 * then the annotations' title, then the server's own name for the tool, then the host's name.
 */
export function entryDisplayName(tool: ToolListEntry['tool']): string {
  return tool.title ?? tool.annotations?.title ?? (tool.origin.kind === 'mcp' ? tool.origin.originalName : tool.name);
}
