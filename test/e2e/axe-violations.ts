import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * What axe finds wrong on the page as it stands, one line per node (`rule: target`); empty when nothing. The page's
 * context must bypass its CSP (`bypassCSP`), which would refuse axe's script.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: { run: (c: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe.run(document);
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  });
}
