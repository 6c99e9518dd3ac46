import type { GetPromptResult } from '@modelcontextprotocol/client';
import { base64Bytes, DEFAULT_BOUND_LIMITS, fitText } from '../invocations/bound-result.js';
import type { BoundLimits } from '../invocations/bound-result.js';
import type { Truncation } from '../store/bounded-result-types.js';
import type { ResourceScreenContent } from './bound-resource.js';
import { boundResource, safeInlineBinary } from './bound-resource.js';

/** One message's content as a surface shows it: text capped, media inline only when safe and within budget. */
export type PromptScreenContent =
  | { readonly kind: 'text'; readonly text: string; readonly totalChars: number; readonly truncated: boolean }
  | {
      readonly kind: 'media';
      readonly type: 'image' | 'audio';
      readonly mimeType: string;
      readonly bytes: number;
      /** `inline`: a safe image or audio type within the screen's media budget, with its data; else `described`. */
      readonly render: 'inline' | 'described';
      readonly data?: string;
    }
  | { readonly kind: 'link'; readonly uri: string; readonly name: string; readonly mimeType?: string }
  | { readonly kind: 'resource'; readonly resource: ResourceScreenContent };

/** A filled prompt, bounded: the messages' text within the model budget, and each message for the screen. */
export interface BoundedPrompt {
  /** The messages as text (`role: ...`), within the model budget; head and tail kept when cut, the cut stated. */
  readonly model: { readonly text: string; readonly truncation?: Truncation };
  readonly screen: readonly { readonly role: 'user' | 'assistant'; readonly content: PromptScreenContent }[];
  /** Characters of the whole text the model payload was cut from. */
  readonly totalChars: number;
}

/**
 * Bounds a `prompts/get` result with the budgets of tool results and reads: for the model, every message as text in
 * order (media named by type and size, an embedded resource's text included, a link named), within `modelChars`; for
 * the screen, each message's text capped at `screenChars`, media carried only for a safe type within the media
 * budget, an embedded resource as a read shows it. The host does not keep a prompt whole: the cut notice says to get
 * the prompt again.
 */
export function boundPrompt(options: {
  serverId: string;
  name: string;
  result: GetPromptResult;
  limits?: Partial<BoundLimits>;
}): BoundedPrompt {
  const limits = { ...DEFAULT_BOUND_LIMITS, ...options.limits };
  const { serverId, name, result } = options;
  const parts: string[] = [];
  const screen: BoundedPrompt['screen'][number][] = [];
  for (const message of result.messages) {
    const c = message.content;
    let text: string;
    let content: PromptScreenContent;
    if (c.type === 'text') {
      text = c.text;
      const truncated = c.text.length > limits.screenChars;
      const shown = truncated ? c.text.slice(0, limits.screenChars) : c.text;
      content = { kind: 'text', text: shown, totalChars: c.text.length, truncated };
    } else if (c.type === 'image' || c.type === 'audio') {
      const bytes = base64Bytes(c.data);
      text = `[${c.type} ${c.mimeType}, ${bytes} bytes, not shown]`;
      const inline = safeInlineBinary(c.mimeType) && bytes <= limits.screenMediaBytes;
      const data = inline ? { data: c.data } : {};
      content = {
        kind: 'media',
        type: c.type,
        mimeType: c.mimeType,
        bytes,
        render: inline ? 'inline' : 'described',
        ...data,
      };
    } else if (c.type === 'resource_link') {
      text = `[resource link ${c.uri} (${c.name})]`;
      content = {
        kind: 'link',
        uri: c.uri,
        name: c.name,
        ...(c.mimeType === undefined ? {} : { mimeType: c.mimeType }),
      };
    } else {
      const read = boundResource({ serverId, uri: c.resource.uri, result: { contents: [c.resource] }, limits });
      text = 'text' in c.resource ? `[embedded resource ${c.resource.uri}]\n${c.resource.text}` : read.model.text;
      content = { kind: 'resource', resource: read.screen[0]! };
    }
    parts.push(`${message.role}: ${text}`);
    screen.push({ role: message.role, content });
  }
  const whole = parts.join('\n\n');
  const named = `prompt "${name}" of server "${serverId}"`;
  const fitted = fitText(whole, limits.modelChars, named);
  if (fitted.truncation === undefined) return { model: { text: fitted.text }, screen, totalChars: whole.length };
  const text = fitted.text.replace(
    `The whole result is kept behind handle ${named}.`,
    `Not kept by the host: get ${named} again.`,
  );
  return { model: { text, truncation: fitted.truncation }, screen, totalChars: whole.length };
}
