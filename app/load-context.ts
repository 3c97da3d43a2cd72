// What our Express server (server/index.ts) passes to every loader and action.
declare module '@remix-run/node' {
  interface AppLoadContext {
    cspNonce: string
    requestId: string
    clientIp: string
    /** Set when the caller is over a rate limit; a public form's action refuses with it (server/rate-limits.ts). */
    rateLimit?: { retryAfterSeconds: number; message: string } | null
  }
}
export {}
