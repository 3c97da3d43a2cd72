// The packages the production server loads from node_modules at run time (issue 34). Everything
// else the server imports is bundled into build/ (vite.config.ts for the app, build-server.mjs for
// server/), so the image ships only these and what they depend on (scripts/runtime-modules.mjs).
// React and the router stay single copies that server/index.ts and the app share; the database
// and password hashing are native addons; Piscina starts its threads from its own files. openid-client stays as published: bundled, its sign-in
// redirect came out as an invalid address (tests/integration/sso.test.ts caught it).
export const RUNTIME_PACKAGES = [
  'react',
  'react-dom',
  'react-router',
  '@react-router/node',
  'better-sqlite3',
  'argon2',
  'openid-client',
  'piscina',
]
