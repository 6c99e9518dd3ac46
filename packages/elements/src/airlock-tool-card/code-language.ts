/** Languages named by a mime type's subtype (after an optional `x-`), for `text/*` and `application/*`. */
const BY_MIME: Readonly<Record<string, string>> = {
  javascript: 'JavaScript',
  ecmascript: 'JavaScript',
  typescript: 'TypeScript',
  json: 'JSON',
  python: 'Python',
  'python-script': 'Python',
  ruby: 'Ruby',
  rust: 'Rust',
  go: 'Go',
  golang: 'Go',
  java: 'Java',
  'java-source': 'Java',
  c: 'C',
  csrc: 'C',
  'c++': 'C++',
  'c++src': 'C++',
  csharp: 'C#',
  kotlin: 'Kotlin',
  swift: 'Swift',
  php: 'PHP',
  sh: 'Shell',
  shellscript: 'Shell',
  sql: 'SQL',
  yaml: 'YAML',
  toml: 'TOML',
  xml: 'XML',
  html: 'HTML',
  css: 'CSS',
  diff: 'Diff',
  patch: 'Diff',
};

/** Languages named by a file extension in the resource's URI, when its mime type names none. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  js: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  ts: 'TypeScript',
  tsx: 'TypeScript',
  jsx: 'JavaScript',
  json: 'JSON',
  py: 'Python',
  rb: 'Ruby',
  rs: 'Rust',
  go: 'Go',
  java: 'Java',
  c: 'C',
  h: 'C',
  cpp: 'C++',
  cc: 'C++',
  hpp: 'C++',
  cs: 'C#',
  kt: 'Kotlin',
  swift: 'Swift',
  php: 'PHP',
  sh: 'Shell',
  bash: 'Shell',
  sql: 'SQL',
  yaml: 'YAML',
  yml: 'YAML',
  toml: 'TOML',
  xml: 'XML',
  html: 'HTML',
  css: 'CSS',
  diff: 'Diff',
};

/**
 * The programming language of an embedded text resource, from its mime type (`text/x-python`,
 * `application/javascript`) or else its URI's extension (`file:///main.rs`, even under `text/plain`); undefined for
 * markdown, prose and anything unknown. A resource with a language renders as a labelled code block (seed 000 R2).
 */
export function codeLanguage(mimeType: string | undefined, uri: string): string | undefined {
  const mime = /^(?:text|application)\/(?:x-)?([\w.+-]+)/i.exec(mimeType ?? '');
  const subtype = mime?.[1]?.toLowerCase();
  if (subtype !== undefined) {
    const named =
      BY_MIME[subtype] ?? (subtype.endsWith('+json') ? 'JSON' : subtype.endsWith('+xml') ? 'XML' : undefined);
    if (named !== undefined) return named;
    if (subtype === 'markdown') return undefined;
  }
  const extension = /\.([a-z0-9+]+)(?:[?#]|$)/i.exec(uri)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : BY_EXTENSION[extension];
}
