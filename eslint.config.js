import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Plain JS scripts (benchmarks, the demo page) sit outside the TypeScript projects the typed rules need.
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'bench/**/*.js',
      'packages/*/bench/**',
      'packages/*/demo/**',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.eslint.json',
          './packages/elements/tsconfig.eslint.json',
          './apps/console/web/tsconfig.json',
          './test/e2e/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Matchers such as expect.stringMatching() are typed any; tests assert through them on purpose.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
);
