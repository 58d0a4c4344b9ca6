// ESLint: typescript-eslint's type-aware rules, and the regular-expression
// checker (no request may stall the service). Formatting is Prettier's job
// (.prettierrc.json), so no rule here is about layout.
import { defineConfig } from 'eslint/config';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

/**
 * The plugin's correctness rules ("Possible Errors"), all as errors. The first
 * three are why this file exists: they find expressions whose running time can
 * grow faster than their input (ReDoS). The others catch expressions that do
 * not match what they appear to. Style rules stay off until the formatter issue.
 */
const regexpCorrectness = {
  'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
  // A search (no `^`, no sticky flag) that tries every start position, each in linear time.
  'regexp/no-super-linear-move': 'error',
  'regexp/no-misleading-capturing-group': ['error', { reportBacktrackingEnds: true }],
  'regexp/no-contradiction-with-assertion': 'error',
  'regexp/no-dupe-disjunctions': [
    'error',
    { report: 'interesting', reportExponentialBacktracking: 'potential', reportUnreachable: 'potential' },
  ],
  'regexp/no-empty-alternative': 'error',
  'regexp/no-empty-capturing-group': 'error',
  'regexp/no-empty-character-class': 'error',
  'regexp/no-empty-group': 'error',
  'regexp/no-empty-lookarounds-assertion': 'error',
  'regexp/no-escape-backspace': 'error',
  'regexp/no-invalid-regexp': 'error',
  'regexp/no-lazy-ends': 'error',
  'regexp/no-misleading-unicode-character': 'error',
  'regexp/no-missing-g-flag': 'error',
  'regexp/no-optional-assertion': 'error',
  'regexp/no-potentially-useless-backreference': 'error',
  'regexp/no-useless-assertions': 'error',
  'regexp/no-useless-backreference': 'error',
  'regexp/no-useless-dollar-replacements': 'error',
};

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'coverage/**', '.exp/**'] },
  {
    name: 'quire/typescript',
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'cluster/**/*.ts'],
    // test/regex.test.ts lints the route schemas' patterns as this virtual file, which
    // no tsconfig holds; only the regexp rules apply to it.
    ignores: ['src/schema-patterns.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits loses its error and its ordering; `void` marks the ones meant to run alone.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Kysely's expression builder is meant to be destructured (`({ exists, selectFrom }) => ...`); its methods are bound.
      '@typescript-eslint/unbound-method': 'off',
      // Fastify hooks and handlers are async by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Tests read response bodies as untyped JSON on purpose: the spec validator
    // (test/support/spec.ts) is what checks their shape.
    name: 'quire/tests',
    files: ['test/**/*.ts', 'bench/**/*.ts', 'cluster/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    name: 'quire/regexp',
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'cluster/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 'latest',
      sourceType: 'module',
    },
    plugins: { regexp },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: regexpCorrectness,
  },
);
