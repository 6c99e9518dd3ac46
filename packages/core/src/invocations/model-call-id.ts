import { HostError } from '../errors/host-error.js';

/** The longest model call id kept: providers' ids are tens of characters; a longer one is a caller's mistake. */
export const MAX_MODEL_CALL_ID_LENGTH = 256;

/**
 * Checks `InvokeOptions.modelCallId` before anything is recorded: absent, or a string of 1 to 256 characters. Anything
 * else is a programmer's error (the adapter passing the model's id), thrown as `invalid_options`.
 */
export function assertModelCallId(value: unknown, option = 'modelCallId'): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_MODEL_CALL_ID_LENGTH) {
    throw new HostError(
      'invalid_options',
      `${option} must be a string of 1 to ${MAX_MODEL_CALL_ID_LENGTH} characters; got ${typeof value === 'string' ? `${value.length} characters` : typeof value}`,
    );
  }
  return value;
}
