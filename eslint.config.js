import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import fs from 'node:fs'
import tseslint from 'typescript-eslint'

/** Imports a layer may not make (docs/architecture.md, "Rules kept by lint"). */
const SERVER_ONLY = {
  group: ['**/*.server', '**/*.server.ts', '**/*.server.tsx'],
  message: 'Server code (.server) stays out of pure rules and the browser.',
}
const REACT = {
  group: ['react', 'react-dom', 'react-dom/*', 'react-router', 'react-router/dom'],
  message: 'Pure rules use no React.',
}
const NODE = { group: ['node:*'], message: 'Pure rules use no Node API.' }
const DATABASE = {
  group: ['~/lib/db/*', 'better-sqlite3', 'drizzle-orm', 'drizzle-orm/*'],
  message: 'Routes reach data through a feature, never the database.',
}
const FEATURES = {
  group: ['~/features/*', '~/http/*', '~/jobs/*'],
  message: 'lib/ is infrastructure: it imports no feature.',
}

const PURE_DATABASE = {
  group: ['drizzle-orm', 'drizzle-orm/*', 'better-sqlite3'],
  message: 'Pure rules use no database.',
}

const restrict = (...patterns) => ['error', { patterns }]

/**
 * The house's floors (docs/architecture.md): map/ is the ground floor and imports no feature; every
 * other feature is used by the others only through its front doors: `~/features/x` (index.ts: pure
 * rules and types), `~/features/x/index.server` (server code) and `~/features/x/ui` (components).
 */
const FEATURES_DIR = 'app/features'
const FEATURE_NAMES = fs
  .readdirSync(FEATURES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
const FRONT_DOORS = ['./index.ts', './index.server.ts', './ui/index.ts']
const featureZones = [
  {
    target: `${FEATURES_DIR}/map`,
    from: FEATURE_NAMES.filter((name) => name !== 'map').map((name) => `${FEATURES_DIR}/${name}`),
    message: 'map/ is the ground floor: it imports no feature.',
  },
  ...FEATURE_NAMES.filter((name) => name !== 'map').map((name) => ({
    target: FEATURE_NAMES.filter((other) => other !== name).map((other) => `${FEATURES_DIR}/${other}`),
    from: `${FEATURES_DIR}/${name}`,
    except: FRONT_DOORS,
    message: `Other features use ${name}/ through its front door: ~/features/${name}, ~/features/${name}/index.server or ~/features/${name}/ui.`,
  })),
]

export default tseslint.config(
  {
    ignores: [
      '.react-router/**',
      'build/**',
      'node_modules/**',
      'drizzle/**',
      'reports/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
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
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: featureZones }],
    },
  },
  // Pure rules: features' and lib's plain .ts files (not .server.ts, not ui/).
  {
    files: ['app/features/**/*.ts', 'app/lib/**/*.ts'],
    ignores: ['**/*.server.ts', '**/ui/**'],
    rules: { 'no-restricted-imports': restrict(SERVER_ONLY, REACT, NODE, PURE_DATABASE) },
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
    // The schema describes the database's tables: it is made of Drizzle's column builders.
    ignores: ['**/*.server.ts', 'app/lib/db/schema/**'],
    rules: { 'no-restricted-imports': restrict(SERVER_ONLY, REACT, NODE, PURE_DATABASE, FEATURES) },
  },
)
