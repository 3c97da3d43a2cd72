import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { BoardCommandInput } from '~/features/board/board-commands'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { addMember, makeBoard } from '../support/board'
import { signUp, type Client } from '../support/client'
import { startServer, type RunningServer } from '../support/server'
import type { Who } from './model'

/**
 * The real side: one built server, a workspace with three members of different levels (each
 * with a session and a write token for MCP), another workspace whose ids must be 404 here, and
 * the three doors a write comes in by: /v1, MCP and the board's command route.
 */

export type Channel = 'rest' | 'board' | 'mcp'
export type Actor = {
  who: Who
  client: Client
  memberId: string
  name: string
  mcp: McpClient
  token: string
}
export type World = {
  server: RunningServer
  workspaceName: string
  actors: Record<Who, Actor>
  foreign: Awaited<ReturnType<typeof makeBoard>>
}
export type Outcome =
  { ok: true; id?: string; body: any } | { ok: false; status?: number; code?: string; text: string }

export async function openWorld(): Promise<World> {
  const server = await startServer()
  const owner = await signUp(server.url, { name: 'Olga Owner' })
  const users = {
    owner,
    editor: await signUp(server.url, { name: 'Eda Editor' }),
    viewer: await signUp(server.url, { name: 'Vic Viewer' }),
  }
  addMember(server.dbPath, owner.workspaceId, users.editor.account.id, 'EDITOR')
  addMember(server.dbPath, owner.workspaceId, users.viewer.account.id, 'VIEWER')
  const members = (await owner.client.get('/v1/members')).json as { id: string; accountId: string }[]
  const actors = {} as Record<Who, Actor>
  for (const who of ['owner', 'editor', 'viewer'] as const) {
    const user = users[who]
    user.client.workspaceId = owner.workspaceId
    const token = `${who} bot`
    const made = await user.client.post('/v1/account/tokens', {
      name: token,
      workspaceId: owner.workspaceId,
      scope: 'write',
    })
    if (made.status !== 201) throw new Error(`token: ${made.status} ${made.text}`)
    const mcp = new McpClient({ name: 'storymap-model', version: '1.0.0' })
    const headers = { Authorization: `Bearer ${made.json.secret}` }
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
    )
    const memberId = members.find((m) => m.accountId === user.account.id)!.id
    actors[who] = { who, client: user.client, memberId, name: user.name, mcp, token }
  }
  const stranger = await signUp(server.url)
  return { server, workspaceName: owner.workspaceName, actors, foreign: await makeBoard(stranger.client) }
}

export async function closeWorld(w: World | undefined) {
  for (const actor of Object.values(w?.actors ?? {})) await actor.mcp.close()
  await w?.server.stop()
}

const PATH: Record<string, string> = {
  milestone: 'milestones',
  workflow: 'workflows',
  subworkflow: 'subworkflows',
  feature: 'features',
  project: 'projects',
}

/** The /v1 route of a command (SPEC §7, CONTRACT §12). */
function restCall(c: BoardCommandInput): [method: string, path: string, body?: Record<string, unknown>] {
  const { type, id, ...fields } = c as BoardCommandInput & { kind?: string }
  const { kind, ...body } = fields as Record<string, unknown>
  const card = `/v1/${PATH[String(kind ?? type.split('.')[0])]}/${id}`
  const [noun, verb] = type.split('.')
  if (verb === 'create' && noun in PATH) return ['POST', card, body]
  if (noun === 'card' && verb === 'delete') return ['DELETE', card]
  if (noun === 'card' && (verb === 'open' || verb === 'close')) return ['POST', `${card}/${verb}`]
  if (noun === 'card' || verb === 'move' || verb === 'estimate' || verb === 'tags')
    return ['POST', `${card}/${verb}`, body]
  if (type === 'comment.create') return ['POST', `/v1/featurecomments/${id}`, body]
  if (type === 'comment.edit') return ['POST', `/v1/featurecomments/${id}/post`, { description: body.post }]
  if (type === 'comment.delete') return ['DELETE', `/v1/featurecomments/${id}`]
  if (type === 'tag.create') return ['POST', `/v1/tags/${id}`, body]
  if (type === 'tag.delete') return ['DELETE', `/v1/tags/${id}`]
  if (type === 'tag.rename' || type === 'tag.color') return ['POST', `/v1/tags/${id}/${verb}`, body]
  throw new Error(`no /v1 route for ${type}`)
}

const TOOL_OF_CREATE: Record<string, [tool: string, parent: Record<string, string>]> = {
  'workflow.create': ['add_goal', { projectId: 'projectId' }],
  'milestone.create': ['add_release', { projectId: 'projectId' }],
  'subworkflow.create': ['add_activity', { workflowId: 'goalId' }],
  'feature.create': ['add_feature', { subWorkflowId: 'activityId', milestoneId: 'releaseId' }],
}

/** Where a move to `index` goes in MCP's terms: before the card now at that index, or last. */
function beforeId(b: ProjectBundle, c: { id: string; index?: number }, list: { id: string; rank: string }[]) {
  const others = list.filter((x) => x.id !== c.id).sort((x, y) => (x.rank < y.rank ? -1 : 1))
  return others[c.index ?? others.length]?.id
}

/** The MCP tool call of a write (a create may carry a colour and a size), or null when MCP has no tool for it. */
export function mcpCall(
  commands: BoardCommandInput[],
  b: ProjectBundle,
): [tool: string, args: Record<string, unknown>] | null {
  const c = commands[0] as BoardCommandInput & Record<string, any>
  const create = TOOL_OF_CREATE[c.type]
  if (create) {
    const args: Record<string, unknown> = { title: c.title }
    for (const [field, arg] of Object.entries(create[1])) args[arg] = c[field]
    for (const more of commands.slice(1) as Record<string, any>[]) {
      if (more.type === 'card.color') args.color = more.color
      if (more.type === 'feature.estimate') args.size = more.estimate
    }
    return [create[0], args]
  }
  if (commands.length > 1 || c.kind === 'project') return null
  switch (c.type) {
    case 'card.rename':
      return ['update_card', { id: c.id, title: c.title }]
    case 'card.description':
      return ['update_card', { id: c.id, description: c.description }]
    case 'card.open':
    case 'card.close':
      return ['update_card', { id: c.id, status: c.type === 'card.open' ? 'OPEN' : 'CLOSED' }]
    case 'card.color':
      return ['update_card', { id: c.id, color: c.color }]
    case 'card.annotations':
      return ['update_card', { id: c.id, annotations: String(c.annotations).split(',').filter(Boolean) }]
    case 'feature.estimate':
      return ['update_card', { id: c.id, size: c.estimate }]
    case 'card.delete':
      return ['delete_card', { id: c.id }]
    case 'comment.create':
      return ['add_comment', { featureId: c.featureId, text: c.post }]
    case 'milestone.move':
    case 'workflow.move':
      return [
        'move_card',
        { id: c.id, beforeId: beforeId(b, c, c.type === 'milestone.move' ? b.milestones : b.workflows) },
      ]
    case 'subworkflow.move':
      return [
        'move_card',
        {
          id: c.id,
          goalId: c.toWorkflowId,
          beforeId: beforeId(
            b,
            c,
            b.subWorkflows.filter((s) => s.workflowId === c.toWorkflowId),
          ),
        },
      ]
    case 'feature.move': {
      const cell = b.features.filter(
        (f) => f.subWorkflowId === c.toSubWorkflowId && f.milestoneId === c.toMilestoneId,
      )
      return [
        'move_card',
        {
          id: c.id,
          activityId: c.toSubWorkflowId,
          releaseId: c.toMilestoneId,
          beforeId: beforeId(b, c, cell),
        },
      ]
    }
  }
  return null
}

async function viaMcp(actor: Actor, tool: string, args: Record<string, unknown>): Promise<Outcome> {
  const answer = (await actor.mcp.callTool({ name: tool, arguments: args })) as {
    content: { text: string }[]
    structuredContent?: Record<string, any>
    isError?: boolean
  }
  const text = answer.content.map((c) => c.text).join('\n')
  if (answer.isError) return { ok: false, code: /\((\w+)\)$/.exec(text)?.[1], text }
  return { ok: true, id: answer.structuredContent?.id, body: answer.structuredContent }
}

async function viaHttp(client: Client, method: string, path: string, body?: unknown): Promise<Outcome> {
  const res = await client.request(method, path, body)
  if (res.status === 200) return { ok: true, body: res.json }
  return { ok: false, status: res.status, code: res.json?.error, text: `${res.status} ${res.text}` }
}

/** Sends one write through `channel`. */
export function sendCommands(
  w: World,
  actor: Actor,
  channel: Channel,
  projectId: string,
  commands: BoardCommandInput[],
  b: ProjectBundle,
) {
  if (channel === 'mcp') {
    const call = mcpCall(commands, b)
    if (!call) throw new Error(`no MCP tool for ${commands[0].type}`)
    return viaMcp(actor, ...call)
  }
  if (channel === 'board')
    return viaHttp(actor.client, 'POST', `/${w.workspaceName}/projects/${projectId}/commands`, commands[0])
  return viaHttp(actor.client, ...restCall(commands[0]))
}

export function sendHistory(
  actor: Actor,
  channel: Channel,
  op: 'undo' | 'redo' | 'restore',
  id: string,
): Promise<Outcome> {
  if (op === 'undo' && channel === 'mcp') return viaMcp(actor, 'undo', { projectId: id })
  return viaHttp(
    actor.client,
    'POST',
    op === 'restore' ? `/v1/trash/${id}/restore` : `/v1/projects/${id}/${op}`,
  )
}
