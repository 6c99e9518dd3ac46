import { z } from 'zod';
import { DASHBOARD_URI } from './demo-resources.js';
import { defineTool, textResult } from './demo-tool.js';
import type { DemoTool } from './demo-tool.js';

/**
 * MCP Apps tools in the current `_meta.ui` form: a view with default visibility, an app-only tool, and a model-only
 * one (a host must refuse it to a view).
 */
export const appTools: readonly DemoTool[] = [
  defineTool({
    name: 'show_dashboard',
    title: 'Show dashboard',
    description: 'Shows the demo dashboard view (an MCP App) next to a short text summary.',
    input: z.object({ title: z.string().max(200).optional().describe('A heading for the dashboard') }),
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
    name: 'model_summary',
    title: 'Summary for the model',
    description: 'Summarises the notes for the model; only the model may call it, never a view.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { ui: { visibility: ['model'] } },
    run: (_args, { state }) => textResult(`${state.notes.size} notes.`),
  }),
];

/**
 * The same cases written in forms the spec deprecated: the flat `ui/resourceUri` key and the early "apps" misspelling.
 * A host reads them and warns, so they are served only when asked for (`--legacy-forms`): a user of the demo should
 * not see deprecation warnings about our own server on every command.
 */
export const legacyFormTools: readonly DemoTool[] = [
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
