// Type-aware lint for every TypeScript file of the project (`npm run lint`, run first by `npm test`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'node_modules/**',
      'coverage/**',
      '.azurite/**',
      '.deploy/**',
      'test-results/**',
      // Generated from schemas/ by json-schema-to-typescript; a test keeps it current.
      'packages/partner-kit/src/contractTypes.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A floating promise already caused one bug here: every promise is awaited or handled.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Numbers and booleans in log lines and messages read naturally.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests index into fixtures they have just built (`batch.trade_records[0]!`); a missing
    // element fails the test at that line, which is what an assertion there would do.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.mts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
