import { ProtocolError, SdkError } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import { describeRefusal, refusalOf } from '../servers/stream-fault.js';

/** The spec's JSON-RPC code for an unknown resource (servers also use -32602 or -32603 saying "not found"). */
const RESOURCE_NOT_FOUND = -32002;
const METHOD_NOT_FOUND = -32601;

/**
 * The error a failed resources, prompts or completion request rejects with, naming the server and what was asked
 * (`what`, e.g. `resource "demo://x"`): the connection's own errors (unavailable, needs sign-in) as they are; a reply
 * over the message cap as `result_too_large`; the server's JSON-RPC error as `not_found` (unknown resource, prompt or
 * method) or `invalid_arguments`, quoting the server's message as its words.
 */
export function requestFailure(serverId: string, what: string, error: unknown): HostError {
  if (error instanceof HostError) return error;
  const data = { serverId, what };
  const refusal = refusalOf(error);
  if (refusal !== undefined) {
    return new HostError(
      'result_too_large',
      `server "${serverId}": ${what} was refused: ${describeRefusal(refusal)}; nothing of it was kept`,
      { data, cause: error },
    );
  }
  if (error instanceof ProtocolError) {
    const said = `server "${serverId}" answered ${what} with JSON-RPC error ${error.code}: ${error.message}`;
    if (error.code === METHOD_NOT_FOUND) {
      return new HostError('not_found', `${said} (the server does not offer this)`, { data, cause: error });
    }
    const unknown = error.code === RESOURCE_NOT_FOUND || /not found|unknown (resource|prompt)/i.test(error.message);
    return new HostError(unknown ? 'not_found' : 'invalid_arguments', said, { data, cause: error });
  }
  if (error instanceof SdkError) {
    return new HostError('server_unavailable', `server "${serverId}": ${what} failed: ${error.message}`, {
      data,
      cause: error,
    });
  }
  return new HostError('server_unavailable', `server "${serverId}": ${what} failed: ${String(error)}`, {
    data,
    cause: error,
  });
}
