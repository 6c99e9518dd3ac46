import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The directions of the layout (shared/DESIGN.md, "The house"), held by the linter. Import cycles between the files and
// the folders of packages/core/src, and the layout's counts, are checked by scripts/check-layout.js, which
// `npm run lint` runs after ESLint.

/** Packages are libraries: they never reach into the runnable apps. */
const PACKAGES_NEVER_IMPORT_APPS = [
  {
    // A relative path that climbs out of packages/<name>/src (three or more '../') into the repository's apps/; a
    // folder of a package's own called apps/ (core's MCP Apps views) stays importable.
    regex: '^(\\.\\./){3,}apps/',
    message: 'packages/* never import apps/*: an app uses the packages, not the other way round.',
  },
  {
    group: ['@airlock/console', '@airlock/console/*'],
    message: 'packages/* never import the console app (@airlock/console): an app uses the packages, not the other way.',
  },
];

/** Domain code talks to storage through the port (store/host-store.ts) only. */
const DOMAIN_NEVER_IMPORTS_STORES = [
  {
    regex: '(^|/)storage/(memory|sqlite|postgres|worker)(/|$)',
    message:
      'Domain folders never import a store implementation: use the HostStore port (store/host-store.ts); the ' +
      'host (host/create-host.ts) or the application picks the store.',
  },
];

/** The folders of packages/core/src that hold the domain, as opposed to storage, testing and the wiring in host/. */
const DOMAIN_FOLDERS = [
  'store',
  'config',
  'events',
  'switches',
  'tasks',
  'apps',
  'invocations',
  'permissions',
  'elicitation',
  'audit',
  'tools',
  'servers',
  'resources',
  'history',
  'i18n',
  'errors',
  'retention',
  'telemetry',
  'auth',
];

export default tseslint.config(
  {
    // Plain JS scripts (benchmarks, the demo page) sit outside the TypeScript projects the typed rules need.
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'bench/**/*.js',
      // The PostgreSQL harness is plain JS (typed by its .d.ts) so that the bench runs it too.
      'test/support/**/*.js',
      'packages/*/bench/**',
      'packages/*/demo/**',
      'eslint.config.js',
      'scripts/**/*.js',
      // The samples users run as they are (plain ESM); test/pack runs each one from an installed tarball.
      'examples/**/*.mjs',
      // The client the MCP conformance suite runs as a command (plain ESM over the built core, as an app embeds it).
      'test/conformance/*.mjs',
      // The API reference TypeDoc writes (npm run docs:api).
      'docs/api/**',
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
          './packages/web-kit/tsconfig.eslint.json',
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
    // The house: a source file past 400 lines of code is asking to be split by concern, so it warns; the count is a
    // prompt to ask "is this one concept?", never a reason to move code. The hard limit (600 lines) is
    // scripts/check-layout.js's. Tests may be longer.
    files: ['**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['warn', { max: 400, skipComments: true, skipBlankLines: true }] },
  },
  {
    // Matchers such as expect.stringMatching() are typed any; tests assert through them on purpose.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: PACKAGES_NEVER_IMPORT_APPS }] },
  },
  {
    // A dynamic import is an import too.
    files: ['packages/*/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/^(@airlock\\/console|(\\.\\.\\/){3,}apps\\/)/]',
          message: 'packages/* never import apps/* or @airlock/console, dynamically or not.',
        },
        {
          // V8 gives each evaluation of such a literal a map of its own in the old generation, which keeps what the
          // accessor's closure holds alive through young collections (see invocations/call-context.ts).
          selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
          message: 'No getters or setters in object literals: use a class, its accessor on the prototype.',
        },
      ],
    },
  },
  {
    // Tests may build any store as a fixture; the domain's own code may not.
    files: DOMAIN_FOLDERS.map((folder) => `packages/core/src/${folder}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...PACKAGES_NEVER_IMPORT_APPS, ...DOMAIN_NEVER_IMPORTS_STORES] }],
    },
  },
  {
    // The console page runs in a browser: it takes core's types, never its runtime (which is Node's).
    files: ['apps/console/web/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@airlock/core',
              allowTypeImports: true,
              message: 'The console page imports @airlock/core types only (import type).',
            },
          ],
          patterns: [
            {
              group: ['@airlock/core/*'],
              allowTypeImports: true,
              message: 'The console page imports @airlock/core types only (import type).',
            },
          ],
        },
      ],
    },
  },
);
