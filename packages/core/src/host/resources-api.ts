import type { HostResources } from '../resources/host-resources.js';

/** `host.resources`: resources per tenant and server: listings (every page), reads bounded like results, subscriptions, completions. */
export type HostResourcesApi = Pick<
  HostResources,
  'list' | 'templates' | 'read' | 'whole' | 'subscribe' | 'unsubscribe' | 'subscribers' | 'complete'
>;

/** `host.prompts`: prompts per tenant and server: listings, a prompt filled with its arguments, argument completions. */
export interface HostPromptsApi {
  list: HostResources['prompts'];
  get: HostResources['getPrompt'];
  complete: HostResources['complete'];
}

/** The `host.resources` object over the resource service. */
export function hostResourcesApi(resources: HostResources): HostResourcesApi {
  return {
    list: (options) => resources.list(options),
    templates: (options) => resources.templates(options),
    read: (options) => resources.read(options),
    whole: (options) => resources.whole(options),
    subscribe: (options) => resources.subscribe(options),
    unsubscribe: (options) => resources.unsubscribe(options),
    subscribers: (options) => resources.subscribers(options),
    complete: (options) => resources.complete(options),
  };
}

/** The `host.prompts` object over the resource service (prompts come from the same servers' catalogs). */
export function hostPromptsApi(resources: HostResources): HostPromptsApi {
  return {
    list: (options) => resources.prompts(options),
    get: (options) => resources.getPrompt(options),
    complete: (options) => resources.complete(options),
  };
}
