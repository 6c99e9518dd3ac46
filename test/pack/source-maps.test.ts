import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_FOLDERS, packedFiles } from './packed-files.js';

// Every .js and .d.ts we publish carries a map; a map that points at a file the tarball lacks is a broken promise
// to the user's debugger and editor. We ship the TypeScript sources (tests left out) so that "go to definition"
// lands in real code and stack traces under --enable-source-maps name real lines. The console's page is a bundle
// with third-party code in it; its maps carry every source's text, so they stand alone and need no files.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the source maps of the packed packages', () => {
  for (const folder of PACKAGE_FOLDERS) {
    it(`point only at files that ${folder} ships`, async () => {
      const files = await packedFiles(join(ROOT, folder));
      const shipped = new Set(files.map((file) => normalize(file)));
      const maps = files.filter((file) => file.endsWith('.map'));
      const missing = maps.flatMap((map) => {
        const { sources, sourcesContent } = JSON.parse(readFileSync(join(ROOT, folder, map), 'utf8')) as {
          sources: string[];
          sourcesContent?: (string | null)[];
        };
        const standsAlone = sourcesContent?.length === sources.length && sourcesContent.every((text) => text !== null);
        if (standsAlone) return [];
        return sources.map((source) => normalize(join(dirname(map), source))).filter((path) => !shipped.has(path));
      });
      expect(missing).toEqual([]);
      expect(files.filter((file) => file.endsWith('.test.ts'))).toEqual([]);
    });
  }
});
