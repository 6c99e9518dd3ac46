import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// @airlock/elements runs in browsers: of @airlock/core it may load only the message catalog, through the subpath
// `@airlock/core/i18n`, whose module graph is the catalog alone (no MCP client, ajv or jsonc-parser, nothing of Node).
// Walked on the built JavaScript, where type imports are gone: what a bundler or a browser would actually fetch.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ELEMENTS = join(ROOT, 'packages/elements');

interface Graph {
  /** The files reached, relative imports followed (static and `import()`). */
  readonly files: readonly string[];
  /** The package specifiers the files import, each once, sorted. */
  readonly packages: readonly string[];
}

/** The module graph from `entry` within its package: every file reached and every package it imports. */
function importGraph(entry: string): Graph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith('.')) visit(resolve(dirname(file), fileName));
      else packages.add(fileName);
    }
  };
  visit(entry);
  return { files: [...files], packages: [...packages].sort() };
}

describe("the elements' use of @airlock/core", () => {
  it('imports at run time only the catalog subpath, @airlock/core/i18n', () => {
    const graph = importGraph(join(ELEMENTS, 'dist/index.js'));
    expect(graph.files.length).toBeGreaterThan(20);
    expect(graph.packages.filter((name) => name.startsWith('@airlock/'))).toEqual(['@airlock/core/i18n']);
  });

  it('finds in @airlock/core/i18n one module that imports nothing, under 30 kB', () => {
    const catalog = createRequire(join(ELEMENTS, 'package.json')).resolve('@airlock/core/i18n');
    const graph = importGraph(catalog);
    expect(graph.files).toEqual([catalog]);
    expect(graph.packages).toEqual([]);
    expect(statSync(catalog).size).toBeLessThan(30_000);
  });
});
