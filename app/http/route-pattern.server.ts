import type { InstrumentRouteFunction, ServerInstrumentation } from 'react-router'
import { metrics } from '~/lib/metrics.server'

type RouteInstrumentations = Parameters<Parameters<InstrumentRouteFunction>[0]['instrument']>[0]
type Recorder = NonNullable<RouteInstrumentations['loader']>

/** Leaves the match's pattern in the request's load context, then runs the loader or action. */
const record: Recorder = async (handler, { pattern, context }) => {
  if (context.route) context.route.pattern = pattern
  await handler()
}

/**
 * Tells the request-duration metric of /metrics (server/metrics.ts) which route answered, as the
 * router matched it: its pattern (`/v1/projects/:id`, `/:workspace/projects/:projectId`, `/*` for
 * the not-found page), never the path with its ids. The router hands every loader and action of
 * a match the same pattern; each writes it into the load context's `route` slot as it starts,
 * and the Express layer reads it when the answer has gone. No second match, no header to strip.
 * Only with METRICS_TOKEN set: otherwise no loader or action is wrapped at all.
 */
export const routePatterns: ServerInstrumentation = {
  route(route) {
    if (metrics()) route.instrument({ loader: record, action: record })
  },
}

/**
 * Narrows the recorded pattern once a route has checked its own parameters: the card operations
 * share one route file (`/v1/:kind/:id/:op`), and a rename and a move are worth telling apart on
 * a dashboard. Only for parameters checked against a fixed list, so the label set stays small.
 */
export function narrowPattern(context: { route?: { pattern?: string } } | undefined, pattern: string) {
  if (context?.route) context.route.pattern = pattern
}
