// oidc-provider ships no types; the tests use this much of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
    /** A Koa middleware in front of every endpoint. */
    use(middleware: (ctx: { path: string; body: unknown }, next: () => Promise<void>) => Promise<void>): this
  }
}
