import { reactRouter } from '@react-router/dev/vite'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import { RUNTIME_PACKAGES } from './scripts/runtime-packages.mjs'

declare module 'react-router' {
  interface Future {
    v3_singleFetch: true
  }
}

/**
 * csv-parse's main entry needs Node's Buffer; in the browser (the import dialog's preview) its
 * self-contained browser build is used instead. The server keeps the faster Node build.
 */
function csvParseInTheBrowser(): Plugin {
  return {
    name: 'csv-parse-in-the-browser',
    enforce: 'pre',
    resolveId(id, importer, options) {
      if (id !== 'csv-parse/sync' || options?.ssr) return null
      return this.resolve('csv-parse/browser/esm/sync', importer, { ...options, skipSelf: true })
    },
  }
}

export default defineConfig(({ command }) => ({
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  server: { hmr: { port: 24679 } },
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react-router',
      'react-router/dom',
      '@conform-to/react',
      '@conform-to/zod/v4',
      'zod',
      '@hello-pangea/dnd',
      'react-markdown',
    ],
    exclude: ['better-sqlite3', 'drizzle-orm', 'argon2', '@react-router/node', 'stripe', 'nodemailer'],
  },
  build: { target: 'es2022' },
  // The build bundles every package but the runtime ones (scripts/runtime-packages.mjs); the dev
  // server loads them from node_modules as they are.
  ssr: command === 'build' ? { noExternal: true, external: RUNTIME_PACKAGES } : {},
  plugins: [csvParseInTheBrowser(), reactRouter()],
}))
