import type { Route } from './+types/mcp'
import { apiError, requireBearerToken } from '~/http/api.server'

/** The MCP SDK (and its zod 4) is loaded on the first call, not by every server that never gets one (ADR 23). */
const loadMcp = () =>
  Promise.all([
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('~/features/automation/mcp.server'),
  ])

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP (CONTRACT §10), stateless: each
 * request gets its own server acting as the token's member, and a JSON answer.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return notAllowed()
  let auth
  try {
    auth = requireBearerToken(request)
  } catch (refusal) {
    if (refusal instanceof Response) return refusal
    throw refusal
  }
  const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await loadMcp()
  const server = createMcpServer(auth)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    void server.close()
  }
}

const notAllowed = () =>
  apiError(405, 'method_not_allowed', 'The MCP endpoint takes POST only (stateless Streamable HTTP).', {
    Allow: 'POST',
  })

export const loader = notAllowed
