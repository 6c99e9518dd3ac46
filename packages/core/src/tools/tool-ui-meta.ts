import type { Audience } from '../caller.js';

/** What MCP Apps metadata says about a tool: who may see it and which view it renders into. */
export interface ToolUiMeta {
  /** `model` and `app` per the MCP Apps extension; the host adds `user` for everything a person may launch. */
  readonly visibility: readonly ('model' | 'app')[];
  readonly resourceUri?: string;
  /** Problems worth a warning (the early "apps" spelling, unknown values). */
  readonly warnings: readonly string[];
}

const DEFAULT_VISIBILITY = ['model', 'app'] as const;

/**
 * Reads `_meta.ui.visibility` and `_meta.ui.resourceUri`, and the deprecated flat `_meta["ui/resourceUri"]`.
 * Visibility defaults to both model and app; "apps" (the early spelling) is read as "app" with a warning.
 */
export function readToolUiMeta(meta: unknown): ToolUiMeta {
  const warnings: string[] = [];
  const record = isRecord(meta) ? meta : {};
  const ui = isRecord(record['ui']) ? record['ui'] : {};
  const flatUri = record['ui/resourceUri'];
  const nestedUri = ui['resourceUri'];
  const resourceUri = typeof nestedUri === 'string' ? nestedUri : typeof flatUri === 'string' ? flatUri : undefined;
  if (typeof nestedUri !== 'string' && typeof flatUri === 'string') {
    warnings.push('uses the deprecated _meta["ui/resourceUri"]; read as _meta.ui.resourceUri');
  }
  const raw = ui['visibility'];
  if (raw === undefined) return { visibility: DEFAULT_VISIBILITY, ...(resourceUri ? { resourceUri } : {}), warnings };
  if (!Array.isArray(raw)) {
    warnings.push('_meta.ui.visibility is not an array; the tool is hidden from everyone but the user');
    return { visibility: [], ...(resourceUri ? { resourceUri } : {}), warnings };
  }
  const visibility = new Set<'model' | 'app'>();
  for (const value of raw as unknown[]) {
    if (value === 'model' || value === 'app') visibility.add(value);
    else if (value === 'apps') {
      warnings.push('_meta.ui.visibility uses "apps"; read as "app"');
      visibility.add('app');
    } else warnings.push(`_meta.ui.visibility has an unknown value ${JSON.stringify(value)}; ignored`);
  }
  return { visibility: [...visibility], ...(resourceUri ? { resourceUri } : {}), warnings };
}

/** The audiences that may see a tool with this MCP Apps visibility. The user (a person) may see every tool. */
export function audiencesOf(visibility: readonly ('model' | 'app')[]): readonly Audience[] {
  return [...visibility, 'user'];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
