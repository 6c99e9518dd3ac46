import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console's page: web/index.html and its module, with lit and the elements bundled in, to dist/web.
export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  logLevel: 'warn',
});
