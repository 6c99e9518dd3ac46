import type {
  ElicitationAnswer,
  ElicitationMode,
  ElicitationRequest,
  Locale,
  MessageKey,
  PermissionDecision,
  PermissionRequest,
  Surface,
} from '@airlock/core';
import { elicitAtTerminal } from './terminal-elicitation.js';
import { formatMessage } from '@airlock/core';
import type { Style } from './cli-style.js';
import { PLAIN } from './cli-style.js';

/** A surface that answers without asking: `--allow` (the user consented on the command line) or fail closed. */
export class FixedSurface implements Surface {
  constructor(
    private readonly decision: PermissionDecision,
    private readonly onAsk: (request: PermissionRequest) => void = () => undefined,
  ) {}

  askPermission(request: PermissionRequest): Promise<PermissionDecision> {
    this.onAsk(request);
    return Promise.resolve(this.decision);
  }
}

/** Numbered 1-5: the seed's four keep their numbers, and allow for this conversation, added later, is 5. */
const ACTIONS = [
  'allow_once',
  'allow_always',
  'deny_once',
  'deny_always',
  'allow_conversation',
] as const satisfies readonly PermissionDecision[];

/** Whether the request offers this action (allow always and allow for this conversation may be withheld). */
function offered(action: PermissionDecision, request: PermissionRequest): boolean {
  if (action === 'allow_always') return request.allowAlways.offered;
  if (action === 'allow_conversation') return request.allowConversation.offered;
  return true;
}

const HINTS: readonly [
  key: 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint',
  message: MessageKey,
][] = [
  ['readOnlyHint', 'mcp.permission.hint.readOnly'],
  ['destructiveHint', 'mcp.permission.hint.destructive'],
  ['idempotentHint', 'mcp.permission.hint.idempotent'],
  ['openWorldHint', 'mcp.permission.hint.openWorld'],
];

/**
 * The prompt's text: header (tool, server, risk), what the annotations say, the full arguments, the five actions.
 * With colour on, the risk is painted by tier and the tool's name is bold.
 */
export function permissionPromptText(request: PermissionRequest, locale: Locale, style: Style = PLAIN): string {
  const t = (key: MessageKey, params?: Record<string, string>) => formatMessage(locale, key, params);
  const server =
    request.server === null
      ? 'airlock'
      : `${request.server.id} (${t(request.server.trusted ? 'mcp.permission.trusted' : 'mcp.permission.untrusted')})`;
  const annotations = request.tool.annotations ?? {};
  const hints = HINTS.filter(([key]) => annotations[key] === true).map(([, message]) => `    • ${t(message)}`);
  const lines = [
    '',
    t('mcp.permission.title'),
    // Why the user is asked (first time, the tool or its server changed, a decision expired, ...), under the title.
    ...(request.reason === undefined
      ? []
      : [
          `  ${t(
            request.reason === 'decision_expired' && request.expiredGrain === 'conversation'
              ? 'mcp.permission.reason.decision_expired_conversation'
              : `mcp.permission.reason.${request.reason}`,
          )}`,
        ]),
    `  ${style.strong(request.tool.displayName)} (${request.tool.originalName}) · ${t('mcp.permission.from', { server })} · ${style.risk(t(`mcp.permission.risk.${request.risk.tier}`), request.risk.tier)}`,
  ];
  const ratedByServer = request.risk.ratedBy === 'server';
  if (hints.length === 0 && !ratedByServer) {
    // Without annotations a tool is the worst case, unless the host's policy rates a trusted server's tools lower.
    lines.push(
      `  ${t(request.risk.destructive ? 'mcp.permission.no_annotations' : 'mcp.permission.no_annotations_policy')}`,
    );
  } else if (hints.length > 0) {
    lines.push(
      `  ${t('mcp.permission.annotations')}${request.risk.unverified ? ` (${t('mcp.permission.unverified')})` : ''}`,
    );
    lines.push(...hints);
  }
  // The server's own `_meta["airlock/risk"]` set the tier: say so, as the sheet does.
  if (ratedByServer) lines.push(`  ${t('mcp.permission.rated_by_server')}`);
  lines.push(`  ${t('mcp.permission.arguments')}:`);
  lines.push(
    ...JSON.stringify(request.args, null, 2)
      .split('\n')
      .map((line) => `    ${line}`),
  );
  const actions = ACTIONS.map((action, index) => {
    const label = `[${index + 1}] ${t(`mcp.permission.action.${action}`)}`;
    const marked = action === request.defaultAction ? `${label} ←` : label;
    return offered(action, request) ? marked : `(${index + 1}) —`;
  });
  lines.push(`  ${actions.join('   ')}`);
  if (!request.allowAlways.offered) lines.push(`  ${t('mcp.permission.allow_always_refused')}`);
  lines.push(`  ${t('mcp.permission.choose')}`);
  return lines.join('\n');
}

/**
 * Asks at the terminal with the five grains of consent, numbered 1-5. Enter takes the default (allow once, or deny
 * once for destructive tools); Esc and Ctrl-C deny once. A grain the request does not offer is not accepted.
 */
export class TerminalSurface implements Surface {
  /** Both modes: forms are asked field by field, URLs shown whole and opened only on "y". */
  readonly elicitationModes: readonly ElicitationMode[] = ['form', 'url'];

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WritableStream,
    private readonly locale: Locale = 'en-US',
    /** How the prompt is painted (the output stream's colour). */
    private readonly style: Style = PLAIN,
  ) {}

  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    return elicitAtTerminal({ request, signal, input: this.input, output: this.output, locale: this.locale });
  }

  askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    this.output.write(permissionPromptText(request, this.locale, this.style));
    return new Promise((resolve) => {
      const wasRaw = this.input.isRaw;
      this.input.setRawMode(true);
      this.input.resume();
      const finish = (decision: PermissionDecision) => {
        this.input.off('data', onData);
        signal.removeEventListener('abort', onAbort);
        this.input.setRawMode(wasRaw);
        this.input.pause();
        this.output.write(`${formatMessage(this.locale, `mcp.permission.action.${decision}`)}\n`);
        resolve(decision);
      };
      const onData = (data: Buffer) => {
        const keys = data.toString('utf8');
        // An escape sequence (arrow keys and the like) is not a lone Esc: ignore it.
        if (keys.startsWith('\u001b') && keys.length > 1) return;
        for (const key of keys) {
          const chosen = ACTIONS[['1', '2', '3', '4', '5'].indexOf(key)];
          if (chosen !== undefined && offered(chosen, request)) return finish(chosen);
          if (key === '\r' || key === '\n') return finish(request.defaultAction);
          if (key === '\u001b' || key === '\u0003') return finish('deny_once');
        }
      };
      const onAbort = () => finish('deny_once');
      this.input.on('data', onData);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** The locale of the terminal: `--lang`, else LC_ALL / LC_MESSAGES / LANG (pt_BR.UTF-8 → pt-BR), else en-US. */
export function terminalLocale(option: string | undefined, env: NodeJS.ProcessEnv = process.env): Locale {
  const raw = option ?? env['LC_ALL'] ?? env['LC_MESSAGES'] ?? env['LANG'] ?? '';
  return /^pt[_-]BR/i.test(raw) ? 'pt-BR' : 'en-US';
}
