// Bundles our Express server (server/index.ts) to build/app-server.js, started by build/server.js
// (server/start.mjs: the Node version check), its page worker to
// build/page-worker.js (loaded through build/page-worker-entry.cjs) and its side thread (WAL
// checkpoints, e-mail) to build/side-thread-worker.js, with the packages it uses but the runtime ones
// (scripts/runtime-packages.mjs) and Vite, which only development loads.
import { build } from 'esbuild'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { RUNTIME_PACKAGES } from './runtime-packages.mjs'
import { asciiSource } from './ascii-source.mjs'

await build({
  entryPoints: {
    'app-server': 'server/index.ts',
    'page-worker': 'server/page-worker.ts',
    'side-thread-worker': 'server/side-thread-worker.ts',
  },
  outdir: 'build',
  bundle: true,
  platform: 'node',
  format: 'esm',
  // A package loaded on first use (import(): the trackers' clients, the AI SDK, nodemailer) goes
  // in a file of its own, read only when first used, not with the server (ADR 23).
  splitting: true,
  // Beside the entries: their code finds its neighbours (the side thread, migrations) from its own URL.
  chunkNames: '[name]-[hash]',
  target: 'node22',
  external: [...RUNTIME_PACKAGES, 'vite'],
  // Bundled CommonJS packages (Express) call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  alias: { '~': fileURLToPath(new URL('../app', import.meta.url)) },
  logLevel: 'warning',
})
// Every module the server loads (these bundles, and the router's build before them), reprinted
// ASCII only, without comments: V8 keeps each source for the life of each thread (ADR 45).
const serverModules = [...fs.globSync('build/*.js'), ...fs.globSync('build/server/**/*.js')]
for (const file of serverModules) {
  const { code, legal, ascii } = await asciiSource(fs.readFileSync(file, 'utf8'))
  if (!ascii) console.warn(`${file}: kept a character beyond ASCII outside strings and patterns`)
  fs.writeFileSync(file, code)
  if (legal) fs.writeFileSync(`${file}.LEGAL.txt`, legal)
}
// The page threads' CommonJS entry, as it is: it import()s build/page-worker.js (see the file).
fs.copyFileSync('server/page-worker-entry.cjs', 'build/page-worker-entry.cjs')
// The entry, as it is: it checks the Node version before it loads the server (see the file).
fs.copyFileSync('server/start.mjs', 'build/server.js')
