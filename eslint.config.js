// ESLint: typescript-eslint's recommended type-checked rules over the service,
// its tests, benches and scripts (issue 36). `npm test` runs it after tsc.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'clients/typescript/dist/', 'clients/typescript/src/schema.d.ts', 'coverage/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore marks a parameter kept for its position or its type
      // (the machines declare runtime-carried actions as `(_, _params: T) => {}`),
      // and `const { a, ...rest } = x` drops `a` on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read the service's answers as the wire gives them (`await res.json()`
    // is untyped JSON) and assert on their fields: the assertion is the check,
    // so the rules against handling untyped values are off in test/ alone.
    // Every other rule holds there. Decision in docs/design-decisions.md.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['**/*.{js,mjs,cjs}'], extends: [tseslint.configs.disableTypeChecked] },
  // Plain JavaScript run by Node (config files, bin/, worker threads).
  { files: ['**/*.{mjs,cjs}', 'bin/**/*.js', '*.js'], languageOptions: { globals: globals.node } },
  // The operator console (ES modules) and the session example (a classic script)
  // run in the browser, served as files.
  { files: ['console/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'module' } },
  { files: ['src/edge/pages/example/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'script' } },
);
