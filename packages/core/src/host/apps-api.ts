import type { AppViews } from '../apps/app-views.js';

/** `host.apps`: MCP Apps: a tool's view (its own ui:// resource, checked, bounded, cached), when `apps.views` is on. */
export type HostAppsApi = Pick<AppViews, 'view' | 'linkOpened' | 'messageSent'>;

/** The `host.apps` object over the views. */
export function hostAppsApi(apps: AppViews): HostAppsApi {
  return {
    view: (options) => apps.view(options),
    linkOpened: (options) => apps.linkOpened(options),
    messageSent: (options) => apps.messageSent(options),
  };
}
