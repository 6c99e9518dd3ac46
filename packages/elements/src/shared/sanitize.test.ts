import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHarness } from '../testing/browser.js';

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

describe('the sanitiser, in a real browser', () => {
  it('renders markdown and strips scripts, handlers, unsafe links and remote images', async () => {
    const page = await harness.open('<div id="out"></div>');
    const markdown =
      '# Title\n\n[ok](https://example.com) [bad](javascript:alert(1)) <img src=x onerror=alert(1)> ' +
      '![remote](https://tracker.example/p.png) <script>alert(1)</script> <audio src="https://tracker.example/a">' +
      '<img srcset="https://tracker.example/s.png 1x"> <table background="https://tracker.example/b.png"></table>' +
      '\n\n```js\nlet a = 1;\n```';
    // A string, so the test runner does not rewrite the page's own dynamic import.
    const html = await page.evaluate<string>(
      `import('/airlock-elements.js').then((m) => m.markdownToSafeHtml(${JSON.stringify(markdown)}))`,
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer" target="_blank">ok</a>');
    expect(html).not.toMatch(/javascript:|onerror|<script|tracker\.example/);
    expect(html).toContain('<code class="language-js">');
  });
});
