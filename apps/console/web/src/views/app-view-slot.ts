import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type {
  AirlockAppView,
  AppCallEvent,
  AppCallResult,
  AppLinkInspection,
  AppLinkOpenedEvent,
  AppMessageEvent,
  AppModelContext,
  AppModelContextEvent,
  AppOpenLinkEvent,
} from '@airlock/elements';
import type { AppView, InvocationRecord, ScreenPayload } from '@airlock/core';
import { api } from '../api-client.js';
import { currentConversation } from '../conversation.js';
import { callFromView } from '../view-calls.js';

/** A view as the console's API sends it: the host's view and the sandbox proxy URL this page frames it behind. */
type ViewAnswer = AppView & { readonly proxyUrl: string };

/**
 * One read per workspace, tool and definition while the page lives (the host caches too; a server per workspace
 * serves each workspace its own view); a failed read is asked again.
 */
const views = new Map<string, Promise<ViewAnswer>>();

function viewOf(workspaceId: string, tool: string, definitionHash: string): Promise<ViewAnswer> {
  const key = `${workspaceId}\n${tool}\n${definitionHash}`;
  let reading = views.get(key);
  if (reading === undefined) {
    reading = api<ViewAnswer>('GET', `/api/app-views/${encodeURIComponent(tool)}`);
    views.set(key, reading);
    reading.catch(() => views.delete(key));
  }
  return reading;
}

const converted = new WeakMap<ScreenPayload, AppCallResult>();

/** The same result object for the same payload, so a redrawn card does not send its view the result again. */
function resultFor(result: ScreenPayload): AppCallResult {
  let value = converted.get(result);
  if (value === undefined) converted.set(result, (value = viewResult(result)));
  return value;
}

/** The card's result as a view receives it: its text, images with their data, and structured content. */
export function viewResult(result: ScreenPayload): AppCallResult {
  const content = result.blocks.map((block): Record<string, unknown> => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'image' && block.data !== undefined) {
      return { type: 'image', data: block.data, mimeType: block.mimeType };
    }
    if (block.type === 'resource_link') return { ...block };
    return { type: 'text', text: `[${block.type}${'mimeType' in block ? ` ${block.mimeType ?? ''}` : ''}]` };
  });
  return {
    content,
    isError: result.isError,
    ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
  };
}

/**
 * A call the view asked for, made by the console as the view's app (the host checks visibility and asks consent):
 * accepted at once, its result the call's card once it ends, a few of each view's calls at a time.
 */
function routeCall(event: AppCallEvent): void {
  const { serverId, name, args } = event.detail;
  const accept = () =>
    api<{ readonly invocationId: string }>('POST', '/api/app-calls', {
      serverId,
      name,
      args,
      conversation: currentConversation(),
    }).then((answer) => answer.invocationId);
  event.detail.respondWith(
    callFromView(event.currentTarget ?? event.target ?? routeCall, accept).then((card): AppCallResult =>
      card.result === undefined
        ? {
            content: [{ type: 'text', text: card.invocation.error?.message ?? card.invocation.state }],
            isError: true,
          }
        : viewResult(card.result),
    ),
  );
}

/** A link the view asks to open: the console describes it, and the element asks the user. */
function inspectLink(event: AppOpenLinkEvent): void {
  event.detail.respondWith(api<AppLinkInspection>('POST', '/api/app-links/inspect', { url: event.detail.url }));
}

/** A link the user consented to open: recorded in the audit. */
function recordLink(event: AppLinkOpenedEvent): void {
  const { tool, url } = event.detail;
  void api('POST', '/api/app-links', { tool, url, conversation: currentConversation() }).catch(() => undefined);
}

/** What a view adds to the model's context: kept by the console for this conversation (bounded). */
function keepContext(event: AppModelContextEvent): void {
  const { serverId, tool, content, structuredContent } = event.detail;
  event.detail.respondWith(
    api<AppModelContext>('POST', '/api/app-context', {
      serverId,
      tool,
      content,
      ...(structuredContent === undefined ? {} : { structuredContent }),
      conversation: currentConversation(),
    }),
  );
}

/** A view's message the user consented to send: recorded, then sent to the chat as the user's own. */
function sendMessage(event: AppMessageEvent): void {
  const { tool, text } = event.detail;
  event.detail.respondWith(
    api('POST', '/api/app-messages', { tool, text, conversation: currentConversation() }).then(() =>
      api('POST', '/api/chat', { message: text, conversation: currentConversation() }),
    ),
  );
}

/**
 * The view of a card's tool, inline under the card, when the tool has one and the call was not itself made by a
 * view (a view's own calls show as plain cards). It gets the call's arguments and, once there is one, its result;
 * while the model still writes the call (`streaming`), the arguments so far as partial input (display only).
 */
export function appViewSlot(
  invocation: InvocationRecord,
  tool: { readonly resourceUri?: string; readonly definitionHash: string } | undefined,
  result: ScreenPayload | undefined,
  chat = false,
  streaming = false,
): TemplateResult | typeof nothing {
  if (tool?.resourceUri === undefined || invocation.caller.kind === 'app') return nothing;
  const reading = viewOf(invocation.scope.workspaceId, invocation.tool, tool.definitionHash);
  // The element stays the same across redraws (its frame is never reloaded); the view is handed to it once read.
  const attach = (element: Element | undefined) => {
    if (element === undefined) return;
    const view = element as AirlockAppView;
    reading.then(
      (answer) => {
        view.proxyUrl = answer.proxyUrl;
        view.view = answer;
      },
      (error: unknown) => void (view.failure = (error as Error).message),
    );
  };
  return html`<div class="app-view">
    <airlock-app-view
      data-app-view=${streaming ? nothing : invocation.id}
      data-model-call=${invocation.modelCallId ?? nothing}
      .toolInputPartial=${streaming ? invocation.args : undefined}
      .toolInput=${streaming ? undefined : invocation.args}
      .toolResult=${result === undefined ? undefined : resultFor(result)}
      @airlock-app-call=${routeCall}
      @airlock-app-open-link=${inspectLink}
      @airlock-app-link-opened=${recordLink}
      @airlock-app-model-context=${keepContext}
      @airlock-app-message=${sendMessage}
      .messages=${chat}
      ${ref(attach)}
    ></airlock-app-view>
  </div>`;
}
