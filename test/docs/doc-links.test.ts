import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README and docs/ link to each other's sections and to files of the repository by relative paths. A section
// renamed or moved, or a file that moved, leaves a link to nothing, which no reader reports until they follow it:
// here every relative link of the repository's own Markdown points to a file that exists and, with a #fragment, to a
// heading of that file (as GitHub makes its anchor).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Markdown without fenced code blocks and inline code, where a bracket or a '#' is not a link or a heading. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, a repeated one numbered as GitHub does (-1, -2…). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const withCode = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, text] of withCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchor(text ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The targets of a Markdown text's links and images that are not URLs (no scheme), as written. */
function relativeTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const defined = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)];
  return [...inline, ...defined]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each relative link of `file` (a path under `root`): a missing file, or a missing heading. */
function brokenLinks(root: string, file: string): string[] {
  const from = join(root, file);
  const broken: string[] = [];
  for (const target of relativeTargets(readFileSync(from, 'utf8'))) {
    const [path = '', fragment] = target.split('#');
    const to = path === '' ? from : resolve(dirname(from), decodeURIComponent(path));
    if (!existsSync(to)) {
      broken.push(`${file}: ${target}: no file ${relative(root, to)}`);
    } else if (fragment !== undefined && fragment !== '' && statSync(to).isFile()) {
      if (!anchors(readFileSync(to, 'utf8')).has(decodeURIComponent(fragment))) {
        broken.push(`${file}: ${target}: no heading #${fragment} in ${relative(root, to)}`);
      }
    }
  }
  return broken;
}

/** The repository's own Markdown: the root's files, docs/, and each package's README. */
function markdownFiles(): string[] {
  const inDir = (dir: string) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith('.md'))
      .map((name) => (dir === '.' ? name : `${dir}/${name}`));
  const readmes = ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(ROOT, group))
      .map((name) => `${group}/${name}/README.md`)
      .filter((path) => existsSync(join(ROOT, path))),
  );
  return [...inDir('.'), ...inDir('docs'), ...readmes];
}

describe('the relative links of the Markdown', () => {
  it.each(markdownFiles())('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(ROOT, file)).toEqual([]);
  });

  it('covers the README and every page of docs/', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    expect(files).toEqual(expect.arrayContaining(['docs/getting-started.md', 'docs/gate.md', 'docs/operations.md']));
  });

  it('reports a link to a missing file and to a missing heading, and not one inside code', () => {
    const fixture = 'test/docs/fixtures/links.md';
    expect(brokenLinks(ROOT, fixture)).toEqual([
      `${fixture}: nowhere.md: no file test/docs/fixtures/nowhere.md`,
      `${fixture}: links.md#not-a-heading: no heading #not-a-heading in ${fixture}`,
      `${fixture}: #also-not-one: no heading #also-not-one in ${fixture}`,
    ]);
  });

  it("makes GitHub's anchors of headings with code, punctuation and repeats", () => {
    const markdown =
      '# Console (`apps/console`)\n\n## AI SDK, OpenAI Agents and LangChain.js\n\n## Notes\n\n## Notes\n';
    expect([...anchors(markdown)]).toEqual([
      'console-appsconsole',
      'ai-sdk-openai-agents-and-langchainjs',
      'notes',
      'notes-1',
    ]);
  });
});
