import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import type { ElicitationAnswer, ElicitationRequest, FormField, Locale, MessageKey } from '@airlock/core';
import { formatMessage, parseFieldInput } from '@airlock/core';

/**
 * Asks a server's question at the terminal, one line per field: label (with * when required), the choices numbered,
 * the default in brackets (Enter keeps it), and the value checked as it is typed. Then submit, decline or cancel.
 * A URL question shows the whole URL with its host set apart and any warnings; the browser opens only on "y".
 */
export async function elicitAtTerminal(options: {
  request: ElicitationRequest;
  signal: AbortSignal;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  locale: Locale;
  openUrl?: (url: string) => void;
}): Promise<ElicitationAnswer> {
  const { request, signal, output, locale } = options;
  const t = (key: MessageKey, params?: Record<string, string>) => formatMessage(locale, key, params);
  const rl = createInterface({ input: options.input, output, terminal: false });
  const question = async (prompt: string): Promise<string | undefined> => {
    try {
      return await rl.question(prompt, { signal });
    } catch {
      return undefined; // closed, Ctrl-C or the question was withdrawn
    }
  };
  try {
    output.write(`\n${t('mcp.elicitation.title', { server: request.serverId })}\n  ${request.message}\n`);
    if (request.mode === 'url' && request.url !== undefined) {
      const url = request.url;
      output.write(
        `  ${url.url}\n  ${t('mcp.elicitation.url_mode.host')}: >>> ${url.displayHost} <<<${url.punycode ? ` (${url.host})` : ''}\n`,
      );
      for (const warning of url.warnings) output.write(`  ! ${t(`mcp.elicitation.url_mode.warning.${warning}`)}\n`);
      const answer = await question(`  ${t('mcp.elicitation.url_mode.confirm')} `);
      if (answer === undefined) return { action: 'cancel' };
      if (!/^y(es)?$|^s(im)?$/i.test(answer.trim())) return { action: 'decline' };
      output.write(`  ${t('mcp.elicitation.url_mode.opening')}\n`);
      (options.openUrl ?? openInBrowser)(url.url);
      return { action: 'accept' };
    }
    const content: Record<string, unknown> = { ...(request.form?.initialValues ?? {}) };
    for (const error of Object.entries(request.errors ?? {})) output.write(`  ! ${error[0] || 'form'}: ${error[1]}\n`);
    for (const field of request.form?.model.fields ?? []) {
      output.write(describeField(field, content[field.name], t));
      for (;;) {
        const line = await question('  > ');
        if (line === undefined) return { action: 'cancel' };
        if (line.trim() === '') {
          if (content[field.name] === undefined && field.required) {
            output.write(`  ! ${t('mcp.elicitation.field_required')}\n`);
            continue;
          }
          break;
        }
        const parsed = parseFieldInput(field, line);
        if (!parsed.ok) {
          output.write(`  ! ${parsed.error}\n`);
          continue;
        }
        content[field.name] = parsed.value;
        break;
      }
    }
    const choice = await question(`  ${t('mcp.elicitation.choose')} `);
    if (choice === undefined) return { action: 'cancel' };
    const key = choice.trim().toLowerCase();
    if (key === '' || key === '1' || key === 'a') return { action: 'accept', content };
    if (key === '2' || key === 'd' || key === 'r') return { action: 'decline' };
    return { action: 'cancel' };
  } finally {
    rl.close();
  }
}

function describeField(
  field: FormField,
  current: unknown,
  t: (key: MessageKey, params?: Record<string, string>) => string,
): string {
  const lines = [`  ${field.label}${field.required ? ' *' : ''}${field.description ? ` — ${field.description}` : ''}`];
  if (field.kind === 'select' || field.kind === 'multiselect') {
    field.options.forEach((option, index) => lines.push(`    ${index + 1}) ${option.label}`));
  }
  if (field.kind === 'boolean') lines.push('    y / n');
  if (current !== undefined) {
    const shown = Array.isArray(current) ? current.join(', ') : JSON.stringify(current);
    lines.push(`    [${t('mcp.elicitation.default')}: ${shown}]`);
  }
  return `${lines.join('\n')}\n`;
}

/** Opens a URL in the user's browser: $BROWSER when set, else the platform's opener. Never waits for it. */
export function openInBrowser(url: string): void {
  const [command, ...args] =
    process.env['BROWSER'] !== undefined && process.env['BROWSER'] !== ''
      ? [process.env['BROWSER'], url]
      : process.platform === 'darwin'
        ? ['open', url]
        : process.platform === 'win32'
          ? ['cmd', '/c', 'start', '', url]
          : ['xdg-open', url];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener on this machine: the URL is on screen to copy
  }
}
