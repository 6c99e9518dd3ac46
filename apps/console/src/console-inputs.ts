import type { ConfigInput, HostStore, InputResolver, ServerIsolation, TokenVault } from '@airlock/core';
import { StoredInputs } from '@airlock/core';

/**
 * Whose value a shared connection's `${input:ID}` takes: the console's own, set by an administrator. No user id can
 * be this (a console user id has no "*"), so no user's value is ever taken for it.
 */
export const SHARED_INPUTS_OWNER = '*console';

/**
 * Whose value an input of a server with this isolation is: the user's own on a server per user (their connection,
 * their key), the workspace's on a server per workspace (each workspace its own account), the console's on a shared
 * connection, where one value serves everyone. Only a user's own is not an administrator's to set.
 */
export function inputOwner(
  isolation: ServerIsolation,
  scope: { readonly userId: string; readonly workspaceId: string },
): string {
  if (isolation === 'user') return scope.userId;
  return isolation === 'workspace' ? `*workspace:${scope.workspaceId}` : SHARED_INPUTS_OWNER;
}

/**
 * The console's `${input:ID}` values: what was entered in the server panel, sealed in the store beside sign-in
 * tokens and bound to the config file that declares the input. A connection per user (`user:ID`) takes that user's
 * value, one per workspace (`workspace:ID`) that workspace's, the shared one the console's. Nothing is asked while a server starts (no tab may be open): without
 * a value the server fails, and its error says where to enter one.
 */
export function consoleInputResolver(options: {
  readonly store: HostStore;
  readonly vault: TokenVault;
}): InputResolver {
  const stored = new StoredInputs(options);
  return {
    value: ({ input, source, tenant }) =>
      stored.get({
        userId:
          tenant?.startsWith('user:') === true
            ? tenant.slice('user:'.length)
            : tenant?.startsWith('workspace:') === true
              ? `*${tenant}`
              : SHARED_INPUTS_OWNER,
        source,
        inputId: input.id,
      }),
    howToSet: (input: ConfigInput) =>
      `enter it in the console: the server's panel (About), Inputs, "${input.description ?? input.id}"`,
  };
}
