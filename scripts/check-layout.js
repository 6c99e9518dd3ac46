// The layout rules of the house (shared/DESIGN.md), checked by `npm run lint`; it exits 1 naming each breach.
// - No import cycle between the files of packages/core/src, nor between its folders with the files at its root
//   counted as one folder ('(root)'): the root holds the words every folder uses, so it imports no folder. The entry
//   (index.ts) is left out: it imports everything and nothing imports it.
// - At most five files at the root of packages/core/src, and no source file over 600 lines in any package.
// - No `export … from` outside a package's index files (a moved file's importers are updated, never shimmed), and no
//   `export *` in an entry.
// Type imports, re-exports and import() count as edges; tests do not (nothing imports them).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT_NODE = '(root)';

/** Every .ts source file under `dir`, tests and declaration files left out. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const source = entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts');
    return source ? [path] : [];
  });
}

/** The top folder of a root-relative path, or '(root)' for a file at the root itself. */
function folderOf(path) {
  const parts = path.split(sep);
  return parts.length > 1 ? parts[0] : ROOT_NODE;
}

/**
 * The file graph of `root`: each source file (root-relative) to the files of the tree it imports. The entry is left out.
 * @param {{ root: string, entry?: string }} options
 * @returns {Map<string, Set<string>>}
 */
export function fileGraph(options) {
  const root = resolve(options.root);
  const entry = options.entry ?? 'index.ts';
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const from = relative(root, file);
    if (from === entry) continue;
    const edges = new Set();
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = relative(root, resolve(dirname(file), fileName).replace(/\.js$/, '.ts'));
      if (!to.startsWith('..') && to !== from) edges.add(to);
    }
    graph.set(from, edges);
  }
  return graph;
}

/**
 * The folder graph of `root`: for each edge "A -> B", one import that makes it ("a/x.ts imports b/y.ts").
 * @param {{ root: string, entry?: string }} options
 * @returns {Map<string, Map<string, string>>}
 */
export function folderGraph(options) {
  const graph = new Map();
  for (const [file, targets] of fileGraph(options)) {
    const from = folderOf(file);
    for (const target of targets) {
      const to = folderOf(target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, `${file} imports ${target}`);
    }
  }
  return graph;
}

/** Each strongly connected set of two or more nodes of `graph` (node -> iterable of nodes), sorted (Tarjan). */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * The cycles of the folder graph, the root counted as one folder: each set of folders that import one another, with
 * the imports that join them. Empty when the folders form a one-way layering.
 * @param {{ root: string, entry?: string }} options
 * @returns {{ folders: string[], imports: string[] }[]}
 */
export function folderCycles(options) {
  const graph = folderGraph(options);
  const keysOf = new Map([...graph].map(([from, edges]) => [from, [...edges.keys()]]));
  return stronglyConnected(keysOf).map((folders) => ({
    folders,
    imports: folders.flatMap((from) =>
      [...(graph.get(from) ?? new Map())].filter(([to]) => folders.includes(to)).map(([, why]) => why),
    ),
  }));
}

/**
 * The cycles between files: each set of files that import one another, directly or not.
 * @param {{ root: string, entry?: string }} options
 * @returns {string[][]}
 */
export function fileCycles(options) {
  return stronglyConnected(fileGraph(options));
}

/**
 * Breaches of the counting rules over `files` (repository-relative paths of source files): a file over `maxLines`,
 * an `export … from` outside an index file, an `export *` in an index file.
 * @param {{ repo: string, files: readonly string[], maxLines?: number }} options
 * @returns {string[]}
 */
export function fileRuleBreaches(options) {
  const maxLines = options.maxLines ?? 600;
  const breaches = [];
  for (const file of options.files) {
    const text = readFileSync(join(options.repo, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > maxLines) breaches.push(`${file} has ${lines} lines (at most ${maxLines}): split it by concern`);
    const index = /(^|\/)index\.ts$/.test(file);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier === undefined) continue;
      const { line } = source.getLineAndCharacterOfPosition(statement.getStart(source));
      if (!index) breaches.push(`${file}:${line + 1} re-exports from another module: import from where it is defined`);
      else if (statement.exportClause === undefined || ts.isNamespaceExport(statement.exportClause))
        breaches.push(`${file}:${line + 1} has export *: name each export`);
    }
  }
  return breaches;
}

/** What `npm run lint` checks. */
export const CORE_LAYOUT = { root: 'packages/core/src', entry: 'index.ts', maxRootFiles: 5 };

/** The source files of every package and app, repository-relative. */
export function repositorySources(repo) {
  return ['packages', 'apps'].flatMap((top) =>
    readdirSync(join(repo, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => sourceFiles(join(repo, top, entry.name)).map((file) => relative(repo, file))),
  );
}

/** Every breach of the layout rules in the repository at `repo`. */
export function layoutBreaches(repo) {
  const root = join(repo, CORE_LAYOUT.root);
  const breaches = [];
  const rootFiles = readdirSync(root, { withFileTypes: true }).filter(
    (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'),
  );
  if (rootFiles.length > CORE_LAYOUT.maxRootFiles)
    breaches.push(
      `${CORE_LAYOUT.root} has ${rootFiles.length} files at its root (at most ${CORE_LAYOUT.maxRootFiles}: the entry ` +
        `and the words every folder uses): ${rootFiles.map((entry) => entry.name).join(', ')}`,
    );
  for (const cycle of fileCycles({ root, entry: CORE_LAYOUT.entry }))
    breaches.push(`import cycle between the files ${cycle.join(', ')} of ${CORE_LAYOUT.root}`);
  for (const cycle of folderCycles({ root, entry: CORE_LAYOUT.entry }))
    breaches.push(
      `import cycle between the folders ${cycle.folders.join(', ')} of ${CORE_LAYOUT.root}:\n  ` +
        cycle.imports.join('\n  '),
    );
  breaches.push(...fileRuleBreaches({ repo, files: repositorySources(repo) }));
  return breaches;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const breaches = layoutBreaches(repo);
  for (const breach of breaches) console.error(breach);
  if (breaches.length > 0) process.exit(1);
  console.log('the layout holds: no import cycle, no file over 600 lines, no re-export outside an entry');
}
