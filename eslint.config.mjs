import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/** The TypeScript rules every typed project here shares (the console has its own tsconfig). */
const STRICT_TS_RULES = {
  '@typescript-eslint/no-explicit-any': 'error',
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
  '@typescript-eslint/switch-exhaustiveness-check': 'error',
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
};

const PACKAGE_ENTRIES_ONLY = {
  group: ['@kandev/*/src/*', '@kandev/*/dist/*'],
  message: 'import a package by its name only',
};
const DRIVER_INTERNALS_MESSAGE =
  "knex's and pg's internals are used only in packages/backend/src/platform/store/driver/";
const DRIVER_INTERNALS = { group: ['knex/*', 'pg/*', 'pg-protocol/*'], message: DRIVER_INTERNALS_MESSAGE };
const DRIVER_INTERNALS_REQUIRED = {
  selector: "CallExpression[callee.name='require'][arguments.0.value=/^(knex|pg|pg-protocol)\\u002F/]",
  message: DRIVER_INTERNALS_MESSAGE,
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'packages/protocol/src/generated/**',
      'packages/protocol/proto/**',
      'coverage/**',
      'data/**',
      // Staged image bundles (scripts/build-images.mjs): copies of built output, the console's included.
      '.bundle/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    // The console is browser code with its own tsconfig (DOM, JSX): linted by the block below.
    ignores: ['packages/console/**'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    plugins: { 'import-x': importX },
    // Without these import-x parses no .ts dependency and resolves no import, so no-cycle saw nothing.
    // It still skips type-only imports: scripts/check-import-graph.mjs (npm run lint:graph) counts those.
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
    languageOptions: {
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      ...STRICT_TS_RULES,
      'import-x/no-cycle': 'error',
      'no-restricted-imports': ['error', { patterns: [PACKAGE_ENTRIES_ONLY, DRIVER_INTERNALS] }],
      'no-restricted-syntax': ['error', DRIVER_INTERNALS_REQUIRED],
    },
  },
  {
    // The store's driver folder is the one place that builds on knex's and pg's internals (its README).
    files: ['packages/backend/src/platform/store/driver/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [PACKAGE_ENTRIES_ONLY] }],
      'no-restricted-syntax': 'off',
    },
  },
  {
    files: ['packages/console/src/**/*.{ts,tsx}'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './packages/console/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      ...STRICT_TS_RULES,
    },
  },
  {
    // Daemons log through pino to stderr; stdout carries only the ready line.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'read env only in config.ts (inject it elsewhere)' },
      ],
    },
  },
  {
    files: ['packages/*/src/config.ts', 'packages/*/src/main.ts', 'packages/backend/src/composition/config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The backend's testing entry reads the test run's database choice (KANDEV_TEST_DATABASE*).
    files: ['packages/backend/src/testing/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'packages/backend/src/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          ...['process', 'console', 'URL', 'fetch', 'setTimeout', 'clearTimeout', 'setImmediate', 'Buffer'],
          ...['performance', 'require', '__dirname', 'AbortController'],
        ]
          .map((name) => [name, 'readonly'])
          .concat([['module', 'writable']]),
      ),
    },
  },
);
