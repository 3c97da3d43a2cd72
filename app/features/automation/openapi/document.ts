import { createDocument } from 'zod-openapi'
import { ACCOUNT_PATHS, WORKSPACE_PATHS } from './account-paths'
import { BOARD_PATHS } from './board-paths'
import { operation, type PathSpecs } from './operations'
import { WEBHOOK_PATHS } from './webhook-paths'
import { GITHUB_PATHS } from './github-paths'
import { TRACKER_PATHS } from './tracker-paths'
import { TEMPLATE_PATHS } from './template-paths'
import { ASSISTANT_PATHS } from './assistant-paths'

/** Every /v1 operation, by path and method: the source of the OpenAPI document and its tests. */
export const API_PATHS: PathSpecs = {
  ...ACCOUNT_PATHS,
  ...WORKSPACE_PATHS,
  ...BOARD_PATHS,
  ...WEBHOOK_PATHS,
  ...GITHUB_PATHS,
  ...TRACKER_PATHS,
  ...TEMPLATE_PATHS,
  ...ASSISTANT_PATHS,
}

/** `post /v1/features/{id}/move` → `postFeaturesIdMove`. */
function operationId(method: string, path: string) {
  const words = path
    .replace(/^\/v1\//, '')
    .split(/[/{}_-]+/)
    .filter(Boolean)
  return method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')
}

const DESCRIPTION = `The JSON API of Storymap: every call the web app makes, for scripts and other tools.

Authenticate with a personal API token (\`Authorization: Bearer smp_…\`, made in account settings) or with the
session cookie of the web app. A token stands for its member in one workspace, never above the member's level
today; a \`read\` token may only GET. Workspace calls carry the \`Workspace\` header when called with a session.
New entities get their id (a UUID) from the caller, so a retried create is safe. Every refusal is
\`{"error": code, "message": text}\` with a 4xx status.`

/** The OpenAPI 3.1 document of /v1 (CONTRACT §10), built from the schemas the server validates with. */
export function buildOpenApiDocument(version: string) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {}
  for (const [path, methods] of Object.entries(API_PATHS)) {
    paths[path] = {}
    for (const [method, spec] of Object.entries(methods)) {
      if (spec) paths[path][method] = operation(path, spec, operationId(method, path))
    }
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Storymap API', version, description: DESCRIPTION },
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API token (`smp_…`) from account settings, section API tokens.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'storymap_session',
          description: 'The session cookie set by log-in (the web app).',
        },
      },
    },
  })
}
