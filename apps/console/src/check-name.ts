import { ApiError } from './api-error.js';

/**
 * What a user, workspace or conversation id may be: 1–64 letters, digits, `.`, `_`, `@` or `-`. One rule for the
 * config's users and every id a request names, so an id the config accepts can always sign in.
 */
export const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** Checks an id a request names against `NAME`, so a bad one is refused (400) with the field named. */
export function checkName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !NAME.test(value)) {
    throw new ApiError(400, 'invalid_request', `${field} must be 1-64 letters, digits, ".", "_", "@" or "-"`);
  }
  return value;
}
