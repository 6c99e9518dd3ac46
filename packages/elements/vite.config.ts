import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The ES module for pages without a bundler (the demo page, the browser tests, plain HTML users), minified, with lit,
// DOMPurify, marked and the i18n catalog included. The MCP Apps bridge, which <airlock-app-view> imports only when it
// shows a view, goes to a chunk of its own beside it: a page of cards never loads it.
export default defineConfig({
  build: {
    outDir: 'dist/bundle',
    emptyOutDir: true,
    minify: 'oxc',
    lib: {
      entry: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      formats: ['es'],
      fileName: () => 'airlock-elements.js',
    },
    rolldownOptions: {
      output: {
        chunkFileNames: 'chunks/[name]-[hash].js',
        // Whitespace too (a library build keeps it by default, for bundlers; this file is for browsers), keeping only
        // the licences' comments.
        minify: true,
        comments: { legal: true, annotation: false, jsdoc: false },
      },
    },
  },
  logLevel: 'warn',
});
