// Type-aware lint for the whole repository. Import boundaries follow shared DESIGN.md §2;
// test/unit/boundaries.test.ts enforces the same rules without ESLint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** @param {string[]} forbidden folders of ours the files may not import */
const boundary = (forbidden) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: forbidden.flatMap((f) => [`**/${f}`, `**/${f}/**`]),
          message: 'Forbidden import across layers (see DESIGN.md §2).',
        },
      ],
    },
  ],
});

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'cdk.out/', '.local/', '.conformance/', 'results/', 'tools/node22/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe|suite)$/]",
          message: 'Focused tests are not allowed.',
        },
        {
          selector:
            "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|test|describe|suite)$/]",
          message: 'Statically skipped tests are not allowed; skip at run time with a printed reason.',
        },
      ],
    },
  },
  { files: ['lambda/**/*.ts'], rules: { 'no-console': 'error' } },
  {
    files: ['lambda/mcp/**/*.ts'],
    rules: boundary([
      'federation',
      'bos',
      'sources',
      'aws',
      'handlers',
      'local',
      'client',
      'console',
      'test',
      'bench',
    ]),
  },
  {
    files: ['lambda/federation/**/*.ts'],
    rules: boundary([
      'mcp',
      'bos',
      'sources',
      'aws',
      'handlers',
      'local',
      'client',
      'console',
      'test',
      'bench',
    ]),
  },
  {
    files: ['lambda/sources/**/*.ts'],
    rules: boundary(['mcp', 'bos', 'aws', 'handlers', 'local', 'client', 'console', 'test', 'bench']),
  },
  {
    files: ['lambda/bos/**/*.ts'],
    rules: boundary(['sources', 'aws', 'handlers', 'local', 'client', 'console', 'test', 'bench']),
  },
  {
    files: ['lambda/aws/**/*.ts'],
    rules: boundary([
      'federation',
      'bos',
      'sources',
      'handlers',
      'local',
      'client',
      'console',
      'test',
      'bench',
    ]),
  },
  { files: ['lambda/handlers/**/*.ts'], rules: boundary(['local', 'client', 'console', 'test', 'bench']) },
  // The console is browser code: it may use the client library, nothing of the server or the tooling.
  { files: ['console/**/*.ts'], rules: boundary(['lambda', 'local', 'lib', 'bin', 'test', 'bench']) },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
