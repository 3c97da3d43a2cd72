// The Drizzle schema, one file per aggregate; drizzle-kit reads the same files (drizzle.config.ts).
export * from './accounts'
export * from './workspaces'
export * from './billing'
export * from './board'
export * from './history'
export * from './automation'
export * from './notifications'
export * from './github'
