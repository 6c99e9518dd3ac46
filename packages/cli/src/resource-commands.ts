import type { Host, Listing, PromptScreenContent, ResourceRead, Scope, WholeRead } from '@airlock/core';
import { EXIT_CODES } from './exit-codes.js';
import type { Out } from './list-commands.js';

/** C0 and C1 control characters but tab and newline (ESC among them), and DEL. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * A server's text as it may reach a terminal: control characters (escape sequences that could move the cursor,
 * retitle the window or hide lines, a carriage return that overwrites one) are shown as `\xNN`; tabs and newlines stay.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Servers that could not answer a listing: told on stderr, and the exit code says some failed. */
function told<T>(listing: Listing<T>, io: Out): number {
  for (const f of listing.failures) io.stderr.write(`airlock: ${f.message}\n`);
  return listing.failures.length > 0 ? EXIT_CODES.transport_error : 0;
}

/** `airlock resources [--server ID]`: each server's resources, then its resource templates. */
export async function resourcesCommand(
  host: Host,
  scope: Scope,
  server: string | undefined,
  json: boolean,
  io: Out,
): Promise<number> {
  const which = { scope, ...(server === undefined ? {} : { serverId: server }) };
  const [resources, templates] = await Promise.all([host.resources.list(which), host.resources.templates(which)]);
  if (json) {
    const failures = [...resources.failures, ...templates.failures];
    io.stdout.write(
      `${JSON.stringify({ resources: resources.items, templates: templates.items, failures }, null, 2)}\n`,
    );
    return failures.length > 0 ? EXIT_CODES.transport_error : 0;
  }
  const { style } = io;
  io.stdout.write('resources\n');
  for (const r of resources.items) {
    const about = [r.title ?? r.name, r.mimeType, r.size === undefined ? undefined : `${r.size} bytes`];
    io.stdout.write(
      `  ${style.strong(r.uri)}  (${r.serverId}) · ${about.filter((a) => a !== undefined).join(' · ')}\n`,
    );
  }
  if (resources.items.length === 0) io.stdout.write('  (none)\n');
  io.stdout.write('\nresource templates\n');
  for (const t of templates.items) {
    io.stdout.write(
      `  ${style.strong(terminalText(t.uriTemplate))}  (${t.serverId}) · ${terminalText(t.title ?? t.name)}\n`,
    );
  }
  if (templates.items.length === 0) io.stdout.write('  (none)\n');
  const first = resources.items[0];
  if (first !== undefined) io.stdout.write(`\n${style.dim(`read one: airlock read ${first.serverId} ${first.uri}`)}\n`);
  return Math.max(told(resources, io), told(templates, io));
}

/**
 * `airlock read SERVER URI [--full]`: the screen's view of a read (capped, binary described), or the whole, fetched
 * by the read's handle (the very read that was bounded, not a second one).
 */
export async function readCommand(
  host: Host,
  scope: Scope,
  rest: readonly string[],
  values: { full: boolean; json: boolean },
  io: Out,
): Promise<number> {
  const [serverId = '', uri = ''] = rest;
  const read = await host.resources.read({ scope, serverId, uri, caller: 'user' });
  const contents =
    values.full && read.handle !== undefined
      ? (await host.resources.whole({ scope, handle: read.handle })).contents
      : undefined;
  if (values.full && contents === undefined) {
    io.stderr.write(`airlock: the read of ${uri} is too large to keep whole; shown as bounded\n`);
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...read, ...(contents === undefined ? {} : { contents }) }, null, 2)}\n`);
    return 0;
  }
  if (contents !== undefined) writeWhole(contents, io);
  else writeScreen(read, io);
  return 0;
}

function writeScreen(read: ResourceRead, io: Out): void {
  for (const c of read.screen) {
    if (c.kind === 'text') {
      io.stdout.write(`${terminalText(c.text)}${c.text.endsWith('\n') ? '' : '\n'}`);
      if (c.truncated) {
        io.stderr.write(
          `${io.style.dim(`(${c.totalChars - c.text.length} more characters of ${c.uri}: add --full to see all)`)}\n`,
        );
      }
    } else {
      io.stdout.write(`[binary ${c.uri}: ${c.mimeType ?? 'no type'}, ${c.bytes} bytes; not shown in a terminal]\n`);
    }
  }
}

function writeWhole(contents: WholeRead['contents'], io: Out): void {
  for (const c of contents) {
    if ('text' in c && typeof c.text === 'string') {
      io.stdout.write(`${terminalText(c.text)}${c.text.endsWith('\n') ? '' : '\n'}`);
    } else io.stdout.write(`[binary ${c.uri}: ${c.mimeType ?? 'no type'}; use --json for its base64 data]\n`);
  }
}

/** `airlock prompts [--server ID]`: each prompt with its arguments (required ones marked *). */
export async function promptsCommand(
  host: Host,
  scope: Scope,
  server: string | undefined,
  json: boolean,
  io: Out,
): Promise<number> {
  const listing = await host.prompts.list({ scope, ...(server === undefined ? {} : { serverId: server }) });
  if (json) {
    io.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
    return listing.failures.length > 0 ? EXIT_CODES.transport_error : 0;
  }
  for (const p of listing.items) {
    const args = (p.arguments ?? []).map((a) => `${a.name}${a.required === true ? '*' : ''}`).join(', ');
    const about = p.description === undefined ? '' : ` · ${p.description}`;
    const line = `${p.name}  (${p.serverId})${args === '' ? '' : ` [${args}]`}${about}`;
    io.stdout.write(`  ${terminalText(line)}\n`);
  }
  if (listing.items.length === 0) io.stdout.write('  (none)\n');
  return told(listing, io);
}

/** `airlock prompt SERVER NAME [--args JSON]`: the filled prompt's messages, as text. */
export async function promptCommand(
  host: Host,
  scope: Scope,
  rest: readonly string[],
  values: { args?: string; json: boolean },
  io: Out,
): Promise<number> {
  const [serverId = '', name = ''] = rest;
  const args = values.args === undefined ? {} : (JSON.parse(values.args) as Record<string, string>);
  const filled = await host.prompts.get({ scope, serverId, name, args });
  if (values.json) {
    io.stdout.write(`${JSON.stringify(filled, null, 2)}\n`);
    return 0;
  }
  if (filled.description !== undefined) io.stdout.write(`${io.style.dim(terminalText(filled.description))}\n`);
  // The screen's share: each message's text within the screen budget, media named, never the server's raw bytes.
  for (const m of filled.screen) {
    io.stdout.write(`${io.style.strong(`${m.role}:`)} ${terminalText(promptLine(m.content))}\n`);
  }
  return 0;
}

function promptLine(c: PromptScreenContent): string {
  switch (c.kind) {
    case 'text':
      return c.truncated ? `${c.text}\n[${c.totalChars - c.text.length} more characters not shown]` : c.text;
    case 'media':
      return `[${c.type} ${c.mimeType}, ${c.bytes} bytes; not shown in a terminal]`;
    case 'link':
      return `[resource link ${c.uri} (${c.name})]`;
    case 'resource':
      return c.resource.kind === 'text'
        ? `[embedded resource ${c.resource.uri}]\n${c.resource.text}`
        : `[embedded resource ${c.resource.uri}: ${c.resource.mimeType ?? 'no type'}, ${c.resource.bytes} bytes]`;
  }
}
