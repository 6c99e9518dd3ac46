import { z } from 'zod';
import { DASHBOARD_URI } from './demo-resources.js';
import { defineTool, textResult } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';

/**
 * MCP Apps tools, one per way a tool can point at a view or hide from the model: the current `_meta.ui` form with
 * default and app-only visibility, the deprecated flat `ui/resourceUri` key, and the early "apps" misspelling.
 */
export const appTools: readonly DemoTool[] = [
  defineTool({
    name: 'show_dashboard',
    title: 'Show dashboard',
    description: 'Shows the demo dashboard view (an MCP App) next to a short text summary.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { ui: { resourceUri: DASHBOARD_URI } },
    run: (_args, { state }) => textResult(`Dashboard: ${state.notes.size} notes.`),
  }),
  defineTool({
    name: 'app_refresh',
    title: 'Refresh dashboard',
    description: 'Refreshes the dashboard data; only the dashboard view may call it, never the model.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { ui: { resourceUri: DASHBOARD_URI, visibility: ['app'] } },
    run: (_args, { state }) => textResult(`Dashboard refreshed: ${state.notes.size} notes.`),
  }),
  defineTool({
    name: 'legacy_view',
    title: 'Legacy view',
    description: 'Shows the dashboard through the deprecated flat _meta["ui/resourceUri"] key.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { 'ui/resourceUri': DASHBOARD_URI },
    run: () => textResult('Legacy view shown.'),
  }),
  defineTool({
    name: 'old_app_tool',
    title: 'Old app tool',
    description: 'An app-only tool spelled the early way (visibility "apps"), which hosts accept with a warning.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { ui: { visibility: ['apps'] } },
    run: () => textResult('Old app tool ran.'),
  }),
];
