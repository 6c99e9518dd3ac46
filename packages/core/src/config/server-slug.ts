import { sha256Hex } from '../audit/canonical-json.js';

const PLAIN_ID = /^[A-Za-z0-9_-]{1,32}$/;
const MAX_ID = 32;
const HASH = 8;

/**
 * The id a server is known by (tool names `id__tool`, rules, history) for the name its config gives it. A name that
 * is already a plain id (1-32 letters, digits, "_" or "-") is its own id, so existing configs keep their ids; any other
 * name (`Brave Search`, `io.github.acme/files`) is lowercased with every run of other characters made one "_"
 * (`brave_search`, `io_github_acme_files`), and one too long for an id ends in a short hash of the whole name.
 */
export function serverSlug(name: string): string {
  if (PLAIN_ID.test(name)) return name;
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (slug !== '' && slug.length <= MAX_ID) return slug;
  const hash = sha256Hex(name).slice(0, HASH);
  return slug === '' ? `server_${hash}` : `${slug.slice(0, MAX_ID - HASH - 1).replace(/_+$/, '')}_${hash}`;
}
