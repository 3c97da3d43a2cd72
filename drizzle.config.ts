import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  // One file per aggregate (index.ts re-exports them, columns.ts has the shared helpers).
  schema: './app/lib/db/schema/*.ts',
  out: './drizzle',
})
