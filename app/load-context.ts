// What our Express server (server/index.ts) passes to every loader and action.
declare module '@remix-run/node' {
  interface AppLoadContext {
    cspNonce: string
    requestId: string
    clientIp: string
  }
}
export {}
