import { IssuerMismatchError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { isRootMetadataOfTheOldEra } from './old-era-metadata.js';

const SERVER = new URL('https://mcp.example/api/mcp');

describe("the 2025-03-26 era's metadata at the server's origin", () => {
  it('is the issuer mismatch on the metadata discovery read at the origin of a server with no resource metadata', () => {
    const error = new IssuerMismatchError('metadata', 'https://mcp.example/', 'https://mcp.example/oauth');
    expect(isRootMetadataOfTheOldEra(error, SERVER)).toBe(true);
  });

  it('is not a mismatch on an authorization server the resource metadata named, nor one in a redirect', () => {
    const named = new IssuerMismatchError('metadata', 'https://auth.example/', 'https://evil.example/');
    expect(isRootMetadataOfTheOldEra(named, SERVER)).toBe(false);
    const redirect = new IssuerMismatchError('authorization_response', 'https://mcp.example/', 'https://evil.example/');
    expect(isRootMetadataOfTheOldEra(redirect, SERVER)).toBe(false);
    expect(isRootMetadataOfTheOldEra(new Error('Issuer mismatch'), SERVER)).toBe(false);
  });
});
