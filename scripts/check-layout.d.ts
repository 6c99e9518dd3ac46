/** What to check: a source tree, and its entry (left out of the graphs: it imports everything). */
export interface LayoutOptions {
  readonly root: string;
  readonly entry?: string;
}

/** Each source file (root-relative) to the files of the tree it imports. */
export function fileGraph(options: LayoutOptions): Map<string, Set<string>>;

/** For each edge "A -> B" of the folder graph (the root's files one folder, '(root)'), one import that makes it. */
export function folderGraph(options: LayoutOptions): Map<string, Map<string, string>>;

/** Each set of two or more folders that import each other (directly or not), with the imports that join them. */
export function folderCycles(options: LayoutOptions): { folders: string[]; imports: string[] }[];

/** Each set of two or more files that import each other, directly or not. */
export function fileCycles(options: LayoutOptions): string[][];

/** Files over `maxLines` (default 600), `export … from` outside an index file, `export *` in one. */
export function fileRuleBreaches(options: { repo: string; files: readonly string[]; maxLines?: number }): string[];

/** The source files of every package and app, repository-relative. */
export function repositorySources(repo: string): string[];

/** Every breach of the layout rules in the repository at `repo`. */
export function layoutBreaches(repo: string): string[];

/** The tree `npm run lint` checks. */
export const CORE_LAYOUT: { readonly root: string; readonly entry: string; readonly maxRootFiles: number };
