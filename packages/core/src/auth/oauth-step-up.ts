import { InsufficientScopeError, computeScopeUnion } from '@modelcontextprotocol/client';
import { authFailed } from './auth-errors.js';
import { signIn } from './oauth-sign-in.js';
import type { AuthChallenge, SignInOptions, SignInResult } from './oauth-sign-in.js';
import type { UserOAuthProvider } from './user-oauth-provider.js';

/** How many step-up sign-ins one scope set gets before the server's 403 is taken as final. */
export const DEFAULT_MAX_STEP_UPS = 2;

/** Step-ups so far, per provider and scope set asked for. */
const stepUps = new WeakMap<UserOAuthProvider, Map<string, number>>();

/**
 * The challenge of a 403 `insufficient_scope`, from the SDK's `InsufficientScopeError` (the transport throws it with
 * `onInsufficientScope: 'throw'`) anywhere in an error's cause chain; undefined for any other error.
 */
export function insufficientScopeChallenge(error: unknown): AuthChallenge | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (e instanceof InsufficientScopeError) {
      return {
        ...(e.requiredScope === undefined ? {} : { scope: e.requiredScope }),
        ...(e.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: e.resourceMetadataUrl }),
      };
    }
  }
  return undefined;
}

/**
 * Step-up after a 403 `insufficient_scope`: signs the user in again for the union of the scopes they hold and those
 * the server asks for (through the surface's `authorize`), then the caller retries the call once. The same scope set
 * gets at most `maxStepUps` sign-ins; past that, `auth_failed` at the authorization step, so a server that never
 * accepts does not loop the user through sign-in forever.
 */
export async function stepUp(
  provider: UserOAuthProvider,
  challenge: AuthChallenge,
  options: Omit<SignInOptions, 'scope' | 'challenge'> & { readonly maxStepUps?: number } = {},
): Promise<SignInResult> {
  const held = (await provider.storedTokens())?.tokens.scope;
  const wanted = computeScopeUnion(held, challenge.scope);
  const key = wanted ?? '';
  const counts = stepUps.get(provider) ?? new Map<string, number>();
  stepUps.set(provider, counts);
  const done = counts.get(key) ?? 0;
  const limit = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  if (done >= limit) {
    throw authFailed(
      provider.serverId,
      'authorization',
      `the server still refuses with insufficient_scope after ${done} step-up sign-in(s) for "${key}"`,
    );
  }
  counts.set(key, done + 1);
  const { maxStepUps: _limit, ...rest } = options;
  return signIn(provider, {
    ...rest,
    ...(wanted === undefined ? {} : { scope: wanted }),
    challenge:
      challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl },
  });
}
