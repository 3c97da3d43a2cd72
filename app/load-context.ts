// What our Express server (server/index.ts) passes to every loader and action.
declare module 'react-router' {
  interface AppLoadContext {
    cspNonce: string
    requestId: string
    clientIp: string
    /** Set when the caller is over a rate limit; a public form's action refuses with it (server/rate-limits.ts). */
    rateLimit?: { retryAfterSeconds: number; message: string } | null
    /**
     * Calls `listener` once the client's connection is gone (live streams end with it). Straight
     * from the socket: an abort signal derived through web Request objects can be collected on
     * Node 20 before it fires.
     */
    onDisconnect: (listener: () => void) => void
  }
}
export {}
