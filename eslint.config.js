// ESLint: typescript-eslint's rules that need no types, and the regular-expression
// checker (no request may stall the service). The type-aware rules run in oxlint
// (.oxlintrc.json), on TypeScript's native compiler. Formatting is Prettier's job
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
    // test/regex.test.ts lints the route schemas' patterns as this virtual file; only
    // the regexp rules apply to it.
    ignores: ['src/schema-patterns.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
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
