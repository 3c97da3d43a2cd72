import { vitePlugin as remix } from '@remix-run/dev'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

declare module '@remix-run/node' {
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

export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  server: { hmr: { port: 24679 } },
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      '@remix-run/react',
      '@conform-to/react',
      '@conform-to/zod/v4',
      'zod',
      '@hello-pangea/dnd',
      'react-markdown',
    ],
    exclude: ['better-sqlite3', 'drizzle-orm', 'argon2', '@remix-run/node', 'stripe', 'nodemailer'],
  },
  build: { target: 'es2022' },
  plugins: [
    csvParseInTheBrowser(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        // Off: with thousands of card links Remix's link scanning cost seconds per change, and a
        // click on a card still being saved could blank the page (ADR 6 and ADR 8).
        v3_lazyRouteDiscovery: false,
        v3_routeConfig: true,
      },
    }),
  ],
})
