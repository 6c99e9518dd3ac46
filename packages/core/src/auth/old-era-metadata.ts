import { IssuerMismatchError } from '@modelcontextprotocol/client';

/**
 * True for the issuer check failing on the metadata found at the server's own origin, which is where discovery looks
 * when the server has no protected resource metadata: the 2025-03-26 era, whose clients did not check the issuer of
 * that document. The caller also checks that the server has none (resource metadata naming the origin itself would
 * give the same error). Any other mismatch (an authorization server resource metadata named, an authorization
 * response's `iss`) stays an error.
 */
export function isRootMetadataOfTheOldEra(error: unknown, serverUrl: URL): boolean {
  return (
    error instanceof IssuerMismatchError && error.kind === 'metadata' && error.expected === new URL('/', serverUrl).href
  );
}
