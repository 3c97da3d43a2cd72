import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Imports a layer may not make (docs/architecture.md, "Rules kept by lint"). */
const SERVER_ONLY = { group: ['**/*.server', '**/*.server.ts', '**/*.server.tsx'], message: 'Server code (.server) stays out of pure rules and the browser.' }
const REACT = { group: ['react', 'react-dom', 'react-dom/*', 'react-router', 'react-router/dom'], message: 'Pure rules use no React.' }
const NODE = { group: ['node:*'], message: 'Pure rules use no Node API.' }
const DATABASE = { group: ['~/lib/db/*', 'better-sqlite3', 'drizzle-orm', 'drizzle-orm/*'], message: 'Routes reach data through a feature, never the database.' }
const FEATURES = { group: ['~/features/*', '~/http/*', '~/jobs/*'], message: 'lib/ is infrastructure: it imports no feature.' }

const restrict = (...patterns) => ['error', { patterns }]

export default tseslint.config(
  { ignores: ['build/**', 'node_modules/**', 'drizzle/**', 'reports/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  {
    // No import cycles in the app, type-only imports included.
    files: ['app/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Pure rules: features' and lib's plain .ts files (not .server.ts, not ui/).
  {
    files: ['app/features/**/*.ts', 'app/lib/**/*.ts'],
    ignores: ['**/*.server.ts', '**/ui/**'],
    rules: { 'no-restricted-imports': restrict(SERVER_ONLY, REACT, NODE) },
  },
  // What the browser loads: UI of every feature and the shared components.
  {
    files: ['app/features/**/ui/**', 'app/ui/**', 'app/entry.client.tsx'],
    rules: { 'no-restricted-imports': restrict(SERVER_ONLY) },
  },
  // Routes: guard, parse, call a feature, reply; never the database.
  { files: ['app/routes/**'], rules: { 'no-restricted-imports': restrict(DATABASE) } },
  // Infrastructure: no feature.
  { files: ['app/lib/**'], rules: { 'no-restricted-imports': restrict(FEATURES) } },
  // The lib's pure files again: both rule sets (a later block would replace the earlier one).
  {
    files: ['app/lib/**/*.ts'],
    ignores: ['**/*.server.ts'],
    rules: { 'no-restricted-imports': restrict(SERVER_ONLY, REACT, NODE, FEATURES) },
  },
)
