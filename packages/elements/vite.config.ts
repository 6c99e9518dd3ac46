import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// One self-contained ES module for pages without a bundler (the demo page, the browser tests, plain HTML users):
// lit, DOMPurify, marked and the i18n catalog included.
export default defineConfig({
  build: {
    outDir: 'dist/bundle',
    emptyOutDir: true,
    minify: false,
    lib: {
      entry: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      formats: ['es'],
      fileName: () => 'airlock-elements.js',
    },
    // One file, still: the app view's bridge (loaded on demand in bundled pages) is inlined here.
    rolldownOptions: { output: { codeSplitting: false } },
  },
  logLevel: 'warn',
});
