// @airlock/elements: Lit web components for MCP hosts. Every public export is named here.
export { elementLocale, msg } from './shared/localize.js';
export { isSafeLink, markdownToSafeHtml, sanitizeHtml } from './shared/sanitize.js';
export { AirlockToolList } from './airlock-tool-list/airlock-tool-list.js';
export { entryDisplayName, groupByServer } from './airlock-tool-list/tool-list-entry.js';
export type { ToolListEntry, ToolListGroup } from './airlock-tool-list/tool-list-entry.js';
export { DecisionRevokeEvent } from './airlock-tool-list/tool-list-events.js';
export type { DecisionRevokeDetail } from './airlock-tool-list/tool-list-events.js';
export { applyPreset, PRESET_NAMES, PRESETS } from './shared/presets.js';
export type { Preset, PresetMode, PresetName, PresetToken, PresetTokens } from './shared/presets.js';
export { AirlockToolCard } from './airlock-tool-card/airlock-tool-card.js';
export {
  type ToolCardInvocation,
  type ToolCardProgress,
  type ToolCardServer,
  type ToolCardTool,
} from './airlock-tool-card/tool-card-types.js';
export {
  ToolCancelEvent,
  ToolCopyEvent,
  ToolResourceOpenEvent,
  ToolRetryEvent,
  ToolShowAllEvent,
  type ToolCancelDetail,
  type ToolCopyDetail,
  type ToolResourceOpenDetail,
  type ToolRetryDetail,
  type ToolShowAllDetail,
} from './airlock-tool-card/tool-card-events.js';
export { AirlockPermissionSheet } from './airlock-permission-sheet/airlock-permission-sheet.js';
export { PermissionDecideEvent } from './airlock-permission-sheet/permission-decide-event.js';
export { AirlockElicitationDialog } from './airlock-elicitation-dialog/airlock-elicitation-dialog.js';
export { ElicitationAnswerEvent, ElicitationDoneEvent } from './airlock-elicitation-dialog/elicitation-events.js';
export { AirlockAppView } from './airlock-app-view/airlock-app-view.js';
export { REFUSALS, VIEW_SANDBOX } from './airlock-app-view/app-view-source.js';
export type { AppViewSource } from './airlock-app-view/app-view-source.js';
export type { ConsentView, ViewConsentKeeper, ViewPermission } from './airlock-app-view/permission-consent.js';
export { keepViewConsentsWith } from './airlock-app-view/permission-consent.js';
export {
  AppCallEvent,
  AppLinkOpenedEvent,
  AppMessageEvent,
  AppModelContextEvent,
  AppOpenLinkEvent,
  AppRefusedEvent,
} from './airlock-app-view/app-view-events.js';
export type {
  AppCallDetail,
  AppCallResult,
  AppLinkInspection,
  AppMessageDetail,
  AppModelContext,
  AppModelContextDetail,
  AppOpenLinkDetail,
  AppRefusedDetail,
} from './airlock-app-view/app-view-events.js';
export { viewCsp, viewDocument } from './airlock-app-view/view-document.js';
export type { ViewCsp } from './airlock-app-view/view-document.js';
