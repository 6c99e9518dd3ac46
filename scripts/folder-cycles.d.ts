/** What to check: a source tree, and files whose imports are not edges (the store port). */
export interface FolderCycleOptions {
  readonly root: string;
  readonly except?: readonly string[];
}

/** For each edge "A -> B" of the folder graph, one import that makes it. */
export function folderGraph(options: FolderCycleOptions): Map<string, Map<string, string>>;

/** Each set of two or more folders that import each other (directly or not), with the imports that join them. */
export function folderCycles(options: FolderCycleOptions): { folders: string[]; imports: string[] }[];

/** The tree `npm run lint` checks, and the port it excepts. */
export const CORE_LAYOUT: { readonly root: string; readonly except: readonly string[] };
