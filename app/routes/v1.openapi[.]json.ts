import { buildOpenApiDocument } from '~/domain/openapi/document'
import { APP_VERSION } from '~/domain/version'
import { v1Route } from '~/utils/api.server'

let documentJson: string | undefined

/** GET /v1/openapi.json: the OpenAPI 3.1 document of /v1, no login (CONTRACT §10). Built once. */
const route = v1Route({
  GET: () => {
    documentJson ??= JSON.stringify(buildOpenApiDocument(APP_VERSION))
    return new Response(documentJson, {
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' },
    })
  },
})
export const loader = route.loader
export const action = route.action
