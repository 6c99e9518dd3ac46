import type { Host, Scope } from '@airlock/core';
import { HostError } from '@airlock/core';

/** How many candidates an ambiguous prefix names before "and N more". */
const SHOWN = 10;

/**
 * The one id `given` stands for among `ids`: itself when it is one, else the only id it begins. No match is
 * `not_found`; several are `invalid_arguments` listing them, so the user can type a longer prefix.
 */
export function resolveIdPrefix(given: string, ids: Iterable<string>, what: string): string {
  const matches: string[] = [];
  for (const id of ids) {
    if (id === given) return id;
    if (id.startsWith(given)) matches.push(id);
  }
  if (matches.length === 1) return matches[0] as string;
  if (matches.length === 0) throw new HostError('not_found', `no ${what} ${given} in this workspace`);
  const shown = matches.slice(0, SHOWN).map((id) => `  ${id}`);
  const more = matches.length > SHOWN ? [`  … and ${matches.length - SHOWN} more`] : [];
  throw new HostError(
    'invalid_arguments',
    `${what} prefix ${given} is ambiguous: ${matches.length} match; type more of the id:\n${[...shown, ...more].join('\n')}`,
  );
}

/** Rows of history read per page while looking for a prefix. */
const PAGE = 500;

/**
 * The call `given` stands for in the tenant's history, in any of its conversations (the CLI's own, the console's
 * chats): a whole id, or the start of one. Returns the id and the scope the call was made in.
 */
export async function resolveInvocation(
  host: Host,
  scope: Scope,
  given: string,
): Promise<{ readonly id: string; readonly scope: Scope }> {
  if (given === '') throw new HostError('invalid_arguments', 'an invocation id cannot be empty');
  const conversations = await historyIds(host, scope);
  const id = resolveIdPrefix(given, conversations.keys(), 'invocation');
  return { id, scope: { ...scope, conversationId: conversations.get(id)! } };
}

/** Every call of the tenant, by id, with the conversation it was made in. */
async function historyIds(host: Host, scope: Scope): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (let before: number | undefined; ;) {
    const rows = await host.history.list({
      scope,
      limit: PAGE,
      allConversations: true,
      ...(before === undefined ? {} : { before }),
    });
    for (const row of rows) ids.set(row.id, row.scope.conversationId);
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || last === undefined) return ids;
    // `before` is strict: the next page starts at the last row's millisecond again (rows sharing it are not
    // skipped; the map drops the repeats), unless a whole page shares it, where only moving past it can progress.
    const next = last.createdAt + 1;
    before = before === undefined || next < before ? next : last.createdAt;
  }
}

/** The stored decision id `given` stands for in `scope` (a whole id, or the start of one). */
export function resolveDecisionId(host: Host, scope: Scope, given: string): string {
  if (given === '') throw new HostError('invalid_arguments', 'a decision id cannot be empty');
  return resolveIdPrefix(
    given,
    host.permissions.list({ scope }).map((d) => d.id),
    'decision',
  );
}
