// What our Express server (server/index.ts) passes to every loader and action.

/** The matched route's pattern (`/v1/projects/:id`), never the path with its ids; unset until a loader or action starts. */
export type RouteSlot = { pattern?: string }

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
    /**
     * With METRICS_TOKEN set: where the router's instrumentation leaves the pattern of the matched
     * route (app/http/route-pattern.server.ts), for the request-duration metric (server/metrics.ts).
     */
    route?: RouteSlot
    /**
     * True when the router answers with a whole HTML page, false for the data of a page already
     * open (`.data`): a loader may then leave to the page what it carries by itself (a board's
     * map, app/features/map/bundle-text.ts).
     */
    wholePage: boolean
  }
}
export {}
