// ESLint: typescript-eslint's recommended type-checked rules over the service,
// its tests, benches and scripts (issue 36). `npm test` runs it after tsc.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'clients/typescript/dist/',
      'clients/typescript/src/schema.d.ts',
      'coverage/',
      'console/',
      'src/edge/pages/example/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
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
);
