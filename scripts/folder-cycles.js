// Finds import cycles between the folders of a source tree (packages/core/src by default), type imports included:
// folders are the layers of the code, and a layer that imports, however indirectly, a layer that imports it back is
// two layers that cannot be understood, tested or split apart. `npm run lint` runs it; it exits 1 on a cycle.
//
// An edge A -> B means a source file in folder A imports (import, import type, export from, import()) a file in
// folder B. Tests are left out (nothing imports them, so they close no cycle a reader of the code meets), and so are
// files at the root of the tree (host.ts wires every folder; scope.ts and surface.ts are shared vocabulary). Imports
// of the files named in `except` are not edges: the store port (storage/host-store.ts) speaks the domain's types, and
// every domain folder may use it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Every .ts source file under `dir`, tests and declaration files left out. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const source = entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts');
    return source ? [path] : [];
  });
}

/** The top folder of `file` under `root`, or undefined for a file at the root itself. */
function folderOf(root, file) {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/**
 * The folder graph of `root`: for each edge "A -> B", one import that makes it ("a/x.ts imports b/y.ts").
 * @param {{ root: string, except?: readonly string[] }} options
 * @returns {Map<string, Map<string, string>>}
 */
export function folderGraph(options) {
  const root = resolve(options.root);
  const except = new Set((options.except ?? []).map((file) => resolve(root, file)));
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    if (from === undefined) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName).replace(/\.js$/, '.ts');
      const to = folderOf(root, target);
      if (to === undefined || to === from || except.has(target) || target.startsWith(`..${sep}`)) continue;
      if (relative(root, target).startsWith('..')) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, `${relative(root, file)} imports ${relative(root, target)}`);
    }
  }
  return graph;
}

/**
 * The cycles of the folder graph: each strongly connected set of two or more folders, with the imports that join
 * them. Empty when the folders form a one-way layering.
 * @param {{ root: string, except?: readonly string[] }} options
 * @returns {{ folders: string[], imports: string[] }[]}
 */
export function folderCycles(options) {
  const graph = folderGraph(options);
  // Tarjan's strongly connected components.
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
    for (const to of graph.get(node)?.keys() ?? []) {
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
  return components.map((folders) => ({
    folders,
    imports: folders.flatMap((from) =>
      [...(graph.get(from) ?? new Map())].filter(([to]) => folders.includes(to)).map(([, why]) => why),
    ),
  }));
}

/** The tree `npm run lint` checks, and the port it excepts. */
export const CORE_LAYOUT = { root: 'packages/core/src', except: ['storage/host-store.ts'] };

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', CORE_LAYOUT.root);
  const cycles = folderCycles({ root, except: CORE_LAYOUT.except });
  for (const cycle of cycles) {
    console.error(`import cycle between the folders ${cycle.folders.join(', ')} of ${CORE_LAYOUT.root}:`);
    for (const line of cycle.imports) console.error(`  ${line}`);
  }
  if (cycles.length > 0) process.exit(1);
  console.log(`no import cycle between the folders of ${CORE_LAYOUT.root}`);
}
