import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/web/src/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    // Hooks start and stop real processes (PostgreSQL clusters, consoles, packed installs); stopping one took over
    // 30 s twice at load 10-12 with every hook inside its own bound, so the suite's hooks get a minute.
    hookTimeout: 60_000,
    // expect.poll waits for a condition (a server restarted, a page updated); its default second was too short on
    // two cores loaded by the whole suite (a demo server's restart after a switch took longer), and waiting longer
    // costs a passing test nothing.
    expect: { poll: { timeout: 10_000 } },
  },
});
