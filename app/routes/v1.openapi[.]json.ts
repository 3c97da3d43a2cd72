import type { Route } from './+types/v1.openapi[.]json'
import { APP_VERSION } from '~/lib/version'
import { v1Route } from '~/http/api.server'

let documentJson: string | undefined

/**
 * GET /v1/openapi.json: the OpenAPI 3.1 document of /v1, no login (CONTRACT §10). Built once, on
 * the first request: zod-openapi is loaded then, not by every server (ADR 23).
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async () => {
    if (documentJson === undefined) {
      const { buildOpenApiDocument } = await import('~/features/automation/openapi/document')
      documentJson = JSON.stringify(buildOpenApiDocument(APP_VERSION))
    }
    return new Response(documentJson, {
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' },
    })
  },
})
export const loader = route.loader
export const action = route.action
