import { HostError } from '@airlock/core';
import type { HostErrorCode } from '@airlock/core';
import { KitRefusal } from '@airlock/web-kit';

export type ApiStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 500 | 503;

/** An error the API answers with: an HTTP status and `{ error: { code, message } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: ApiStatus,
    readonly code: string,
    message: string,
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

const STATUS: Partial<Record<HostErrorCode, ApiStatus>> = {
  not_found: 404,
  tool_not_found: 404,
  tool_not_visible: 404,
  server_not_found: 404,
  server_unavailable: 503,
  // Retention removed it: it existed and will not come back, which is not "not found".
  result_expired: 410,
  invalid_arguments: 400,
  // Another writer kept a newer revision (of a conversation) meanwhile, or a turn already runs in it.
  conflict: 409,
  invalid_scope: 400,
  // A rule, a stored decision or the user refused a resource read: nothing was sent to the server.
  permission_denied: 403,
  // The server declares no such capability (resources or prompts): nothing was sent to it.
  not_supported: 400,
  store_error: 503,
  closed: 503,
};

/**
 * The status and body for anything a route threw: API errors as they are, the kit's refusals (its surface's answers)
 * and host errors by code, the rest as 500.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof KitRefusal) return new ApiError(error.status, error.code, error.message);
  if (error instanceof HostError) {
    return new ApiError(STATUS[error.code] ?? 400, error.code, error.message, error.data);
  }
  return new ApiError(500, 'internal', 'the console failed to answer this request; see its log');
}
