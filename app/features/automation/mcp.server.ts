import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { parseBoardCommand, type BoardCommand, type BoardCommandInput, type CardKind } from '~/features/board'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { DomainError, refuse } from '~/lib/errors'
import { createSearchTextIndex, featureMatcher, memberNameMap } from '~/features/board'
import { MCP_TOOLS, type McpToolName } from './mcp-tools'
import { registerAssistantPrompts } from './mcp-prompts.server'
import { storyMapOutline } from './story-map-outline'
import { APP_VERSION } from '~/lib/version'
import type { TokenAuth } from './api-token.server'
import { executeBoardCommand, executeBoardCommands } from '~/features/board/index.server'
import { undo } from '~/features/history/index.server'
import { workspaceMemberNames } from '~/features/notifications/index.server'
import { getProjectBundle } from '~/features/map/project-bundle.server'
import { listProjects, locateCard, projectCounts } from '~/features/map/project.server'
import { isUuid } from '~/lib/ids'
import { NO_FILTER } from '~/features/board'

/**
 * The MCP tools (CONTRACT §10) over the same models as /v1: reads from the project bundle,
 * writes through executeBoardCommand(s) with the token's workspace context (level and plan as
 * of this request, `via` its name), so permissions, the change log, live events, activity and
 * undo are the board's own. A refusal is a tool error in words.
 */

type Args = Record<string, unknown>
type ToolResult = {
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

const text = (value: string, structuredContent?: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(structuredContent ? { structuredContent } : {}),
})

function commandOf(input: BoardCommandInput | Record<string, unknown>): BoardCommand {
  const parsed = parseBoardCommand(input)
  if (!parsed.ok) throw refuse.invalid(parsed.code, parsed.message)
  return parsed.command
}

function idArg(args: Args, name: string): string {
  const value = args[name]
  if (!isUuid(value))
    throw refuse.invalid(`${name}_invalid`, `${name} must be an id (a UUID) as get_story_map shows it.`)
  return value.toLowerCase()
}

/** The commands that set a card's optional fields after `kind`/`id` exist. */
function fieldCommands(kind: CardKind, id: string, args: Args): BoardCommandInput[] {
  const commands: BoardCommandInput[] = []
  if (args.title !== undefined) commands.push({ type: 'card.rename', kind, id, title: args.title as string })
  if (args.description !== undefined)
    commands.push({ type: 'card.description', kind, id, description: args.description as string })
  if (args.color !== undefined) commands.push({ type: 'card.color', kind, id, color: args.color as '' })
  if (args.annotations !== undefined) {
    const list = Array.isArray(args.annotations) ? args.annotations : []
    commands.push({ type: 'card.annotations', kind, id, annotations: list.join(',') })
  }
  if (args.size !== undefined) {
    if (kind !== 'feature') throw refuse.invalid('size_invalid', 'Only features have a size.')
    commands.push({ type: 'feature.estimate', id, estimate: args.size as number })
  }
  if (args.status !== undefined) {
    if (args.status !== 'OPEN' && args.status !== 'CLOSED')
      throw refuse.invalid('status_invalid', 'status is OPEN or CLOSED.')
    // Reopen first so the other fields of a closed card may change; close last.
    const change = {
      type: args.status === 'OPEN' ? 'card.open' : 'card.close',
      kind,
      id,
    } as BoardCommandInput
    if (args.status === 'OPEN') commands.unshift(change)
    else commands.push(change)
  }
  return commands
}

const KIND_NAME: Record<CardKind, string> = {
  workflow: 'goal',
  subworkflow: 'activity',
  milestone: 'release',
  feature: 'feature',
}

function cardIn(auth: TokenAuth, id: string) {
  const found = locateCard(auth.context.workspace.id, id)
  if (!found) throw refuse.notFound('No card with this id in this workspace.', 'not_found')
  return found
}

/** Where a moved card goes: its index in the destination list without it, before `beforeId` or last. */
function indexBefore(list: { id: string }[], movedId: string, beforeId: string | undefined): number {
  const others = list.filter((c) => c.id !== movedId)
  if (beforeId === undefined) return others.length
  const index = others.findIndex((c) => c.id === beforeId)
  if (index < 0)
    throw refuse.invalid('before_id_invalid', 'beforeId is not a card of the list the card moves to.')
  return index
}

function create(auth: TokenAuth, kind: CardKind, base: Record<string, unknown>, args: Args) {
  const id = crypto.randomUUID()
  const first = commandOf({ ...base, type: `${kind}.create`, id, title: args.title } as BoardCommandInput)
  const rest = fieldCommands(kind, id, { ...args, title: undefined }).map(commandOf)
  executeBoardCommands(auth.context, [first, ...rest])
  return text(`Added ${KIND_NAME[kind]} "${String(args.title).trim()}" with id ${id}.`, { id })
}

function move(auth: TokenAuth, args: Args) {
  const id = idArg(args, 'id')
  const { kind, projectId } = cardIn(auth, id)
  const bundle = getProjectBundle(auth.context.workspace.id, projectId)
  const beforeId = args.beforeId === undefined ? undefined : idArg(args, 'beforeId')
  let command: BoardCommandInput
  if (kind === 'feature') {
    const toSubWorkflowId = idArg(args, 'activityId')
    const toMilestoneId = idArg(args, 'releaseId')
    const cell = bundle.features.filter(
      (f) => f.subWorkflowId === toSubWorkflowId && f.milestoneId === toMilestoneId,
    )
    command = {
      type: 'feature.move',
      id,
      toSubWorkflowId,
      toMilestoneId,
      index: indexBefore(cell, id, beforeId),
    }
  } else if (kind === 'subworkflow') {
    const toWorkflowId = idArg(args, 'goalId')
    const list = bundle.subWorkflows.filter((s) => s.workflowId === toWorkflowId)
    command = { type: 'subworkflow.move', id, toWorkflowId, index: indexBefore(list, id, beforeId) }
  } else {
    const list = kind === 'workflow' ? bundle.workflows : bundle.milestones
    command = { type: `${kind}.move`, id, index: indexBefore(list, id, beforeId) }
  }
  executeBoardCommand(auth.context, commandOf(command))
  return text(`Moved ${KIND_NAME[kind]} ${id}.`)
}

function search(bundle: ProjectBundle, query: string) {
  // Mentions are searched as `@{current name}`, like the board (names read once per search).
  const names = bundle.featureComments.some((c) => c.post.includes('@['))
    ? memberNameMap(workspaceMemberNames(bundle.project.workspaceId))
    : undefined
  const searchTexts = createSearchTextIndex()(bundle.features, bundle.featureComments, names)
  const matches = featureMatcher({ ...NO_FILTER, q: query }, bundle, (f) => searchTexts.get(f.id) ?? '')
  const found = matches ? bundle.features.filter(matches) : []
  const release = new Map(bundle.milestones.map((m) => [m.id, m.title]))
  const activity = new Map(bundle.subWorkflows.map((s) => [s.id, s.title]))
  const lines = found.map(
    (f) =>
      `- "${f.title}" [${f.id}] in activity "${activity.get(f.subWorkflowId)}", release "${release.get(f.milestoneId)}"`,
  )
  return text(
    found.length === 0 ? `No feature matches "${query}".` : `${found.length} found:\n${lines.join('\n')}`,
    {
      features: found.map((f) => ({
        id: f.id,
        title: f.title,
        activityId: f.subWorkflowId,
        releaseId: f.milestoneId,
      })),
    },
  )
}

const HANDLERS: Record<McpToolName, (auth: TokenAuth, args: Args) => ToolResult> = {
  list_projects: (auth) => {
    const counts = projectCounts(auth.context.workspace.id)
    const projects = listProjects(auth.context.workspace.id).map((p) => ({
      id: p.id,
      title: p.title,
      ...counts.get(p.id),
    }))
    const lines = projects.map(
      (p) =>
        `- "${p.title}" [${p.id}]: ${p.goals} goals, ${p.activities} activities, ${p.releases} releases, ${p.features} features`,
    )
    return text(projects.length === 0 ? 'No story maps yet.' : lines.join('\n'), { projects })
  },
  get_story_map: (auth, args) => {
    const bundle = getProjectBundle(auth.context.workspace.id, idArg(args, 'projectId'))
    return text(storyMapOutline(bundle), bundle as unknown as Record<string, unknown>)
  },
  search_cards: (auth, args) =>
    search(getProjectBundle(auth.context.workspace.id, idArg(args, 'projectId')), String(args.query ?? '')),
  add_goal: (auth, args) => create(auth, 'workflow', { projectId: args.projectId }, args),
  add_activity: (auth, args) => create(auth, 'subworkflow', { workflowId: args.goalId }, args),
  add_release: (auth, args) => create(auth, 'milestone', { projectId: args.projectId }, args),
  add_feature: (auth, args) =>
    create(auth, 'feature', { subWorkflowId: args.activityId, milestoneId: args.releaseId }, args),
  update_card: (auth, args) => {
    const id = idArg(args, 'id')
    const { kind } = cardIn(auth, id)
    const commands = fieldCommands(kind, id, args).map(commandOf)
    executeBoardCommands(auth.context, commands)
    return text(`Changed ${KIND_NAME[kind]} ${id}.`)
  },
  move_card: move,
  delete_card: (auth, args) => {
    const id = idArg(args, 'id')
    const { kind } = cardIn(auth, id)
    executeBoardCommand(auth.context, commandOf({ type: 'card.delete', kind, id }))
    return text(`Deleted ${KIND_NAME[kind]} ${id}; it is in the project's trash.`)
  },
  add_comment: (auth, args) => {
    const id = crypto.randomUUID()
    executeBoardCommand(
      auth.context,
      commandOf({
        type: 'comment.create',
        id,
        featureId: args.featureId as string,
        post: args.text as string,
      }),
    )
    return text(`Commented on feature ${String(args.featureId)}.`, { id })
  },
  undo: (auth, args) => {
    const step = undo(auth.context, idArg(args, 'projectId'))
    return text(step.summary, step)
  },
}

function toolError(error: unknown): ToolResult {
  if (error instanceof DomainError)
    return { content: [{ type: 'text', text: `${error.message} (${error.code})` }], isError: true }
  throw error
}

/** A new MCP server for one request, acting as the token's member. */
export function createMcpServer(auth: TokenAuth): McpServer {
  const server = new McpServer({ name: 'storymap', version: APP_VERSION })
  for (const [name, tool] of Object.entries(MCP_TOOLS) as [McpToolName, (typeof MCP_TOOLS)[McpToolName]][]) {
    server.registerTool(
      name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: !tool.writes },
      },
      async (args: Args) => {
        try {
          if (tool.writes && auth.scope === 'read')
            throw refuse.forbidden(
              'This token may only read: make a token with write scope to change the map.',
              'token_read_only',
            )
          return HANDLERS[name](auth, args)
        } catch (error) {
          return toolError(error)
        }
      },
    )
  }
  registerAssistantPrompts(server, auth)
  return server
}
