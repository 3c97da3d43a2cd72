// Bundles our Express server (server/index.ts) to build/server.js; packages stay external.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

await build({
  entryPoints: ['server/index.ts'],
  outfile: 'build/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '~': fileURLToPath(new URL('../app', import.meta.url)) },
  logLevel: 'warning',
})
