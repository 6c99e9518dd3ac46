// The host's one reach below the v2 SDK client's public API is OrderedClient. These pin it to the SDK line it was
// written for, so an SDK upgrade that renames or drops a member it uses fails here, by name, before any call does.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { SDK_LINE } from './ordered-client.js';

/** The installed SDK client's version, from the package.json beside its entry's folder. */
function installedVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/client')));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version: string;
      };
      if (manifest.name === '@modelcontextprotocol/client') return manifest.version;
    } catch {
      // Not the package's folder yet: go up.
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('@modelcontextprotocol/client has no package.json above its entry');
    dir = up;
  }
}

describe('OrderedClient and the SDK it adapts', () => {
  it('runs on the SDK line it was written for', () => {
    expect(installedVersion().startsWith(`${SDK_LINE}.`)).toBe(true);
  });

  it.each(['_onresponse', '_wireCodec', '_outboundMetaEnvelope', '_getRequestHandler', 'buildContext'])(
    "finds the SDK client's protected %s, which it calls",
    (member) => {
      expect(typeof (Client.prototype as unknown as Record<string, unknown>)[member]).toBe('function');
    },
  );
});
