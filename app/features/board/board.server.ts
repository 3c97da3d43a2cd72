import type { BoardCommand } from './board-commands'
import { refuse } from '~/lib/errors'
import * as cards from './cards.server'
import { executeChange, type ChangeActor } from '~/features/map/door.server'
import type {
  PublicComment,
  PublicFeature,
  PublicMilestone,
  PublicPersona,
  PublicProject,
  PublicSubWorkflow,
  PublicWorkflow,
  PublicWorkflowPersona,
  PublicTag,
  Tx,
} from '../map/entities.server'
import * as more from './comments-personas.server'
import * as tags from './tags.server'

/**
 * A board command as a change through the one door (app/features/map/door.server.ts), from
 * the /v1 routes, MCP and the board page alike: an `edit` of the permission table, one
 * transaction with its change-log entry. Returns the public entity (or `{}` for deletes).
 */
export function executeBoardCommand<C extends BoardCommand>(
  actor: ChangeActor,
  command: C,
  now = new Date(),
): BoardCommandResult<C> {
  const author = authorOf(actor, now)
  // better-sqlite3 is synchronous: the read-compute-write of ranks cannot interleave with another request.
  return executeChange(actor, {
    action: 'edit',
    command,
    at: now,
    write: (tx) => run(tx, author, command),
  }) as BoardCommandResult<C>
}

/**
 * A command and follow-ups on what it made or changed (a card created with its colour and size,
 * several fields of one card), as ONE change: one event, one activity line named after the
 * first command, one step to undo. All or nothing. Answers the last command's result.
 */
export function executeBoardCommands(
  actor: ChangeActor,
  commands: readonly BoardCommand[],
  now = new Date(),
): unknown {
  if (commands.length === 0) throw refuse.invalid('invalid_input', 'Nothing to change.')
  if (commands.length === 1) return executeBoardCommand(actor, commands[0], now)
  const author = authorOf(actor, now)
  return executeChange(actor, {
    action: 'edit',
    command: commands[0],
    at: now,
    write: (tx) => {
      let result: unknown
      for (const command of commands) result = run(tx, author, command)
      return result
    },
  })
}

const authorOf = (actor: ChangeActor, now: Date): cards.Author => ({
  workspaceId: actor.workspace.id,
  memberId: actor.member.id,
  name: actor.account.name,
  now: now.toISOString(),
})

type Deleted = Record<string, never>
type ResultByType = {
  'project.create': PublicProject
  'milestone.create': PublicMilestone
  'workflow.create': PublicWorkflow
  'subworkflow.create': PublicSubWorkflow
  'feature.create': PublicFeature
  'milestone.move': PublicMilestone
  'workflow.move': PublicWorkflow
  'subworkflow.move': PublicSubWorkflow
  'feature.move': PublicFeature
  'feature.estimate': PublicFeature
  'comment.create': PublicComment
  'comment.edit': PublicComment
  'comment.delete': Deleted
  'persona.create': PublicPersona
  'persona.update': PublicPersona
  'persona.delete': Deleted
  'workflowPersona.create': PublicWorkflowPersona
  'workflowPersona.delete': Deleted
  'tag.create': PublicTag
  'tag.rename': PublicTag
  'tag.color': PublicTag
  'tag.delete': Deleted
  'feature.tags': PublicFeature
  'card.delete': Deleted
}
type CardOf = {
  milestone: PublicMilestone
  workflow: PublicWorkflow
  subworkflow: PublicSubWorkflow
  feature: PublicFeature
  project: PublicProject
}

/** What a command answers: the entity it created or changed (by kind for the shared card operations), `{}` for deletes. */
export type BoardCommandResult<C extends BoardCommand> = C['type'] extends keyof ResultByType
  ? ResultByType[C['type']]
  : C extends { kind: infer K extends keyof CardOf }
    ? CardOf[K]
    : never

function run(tx: Tx, a: cards.Author, c: BoardCommand) {
  switch (c.type) {
    case 'project.create':
      return cards.createProject(tx, a, c)
    case 'milestone.create':
      return cards.createTopCard(tx, a, 'milestone', c)
    case 'workflow.create':
      return cards.createTopCard(tx, a, 'workflow', c)
    case 'subworkflow.create':
      return cards.createSubWorkflow(tx, a, c)
    case 'feature.create':
      return cards.createFeature(tx, a, c)
    case 'card.rename':
      return cards.changeCard(tx, a, c.kind, c.id, { title: c.title })
    case 'card.description':
      return cards.changeCard(tx, a, c.kind, c.id, { description: c.description })
    case 'card.open':
      return cards.changeCard(tx, a, c.kind, c.id, { status: 'OPEN' })
    case 'card.close':
      return cards.changeCard(tx, a, c.kind, c.id, { status: 'CLOSED' })
    case 'card.color':
      return cards.changeCard(tx, a, c.kind, c.id, { color: c.color })
    case 'card.annotations':
      return cards.changeCard(tx, a, c.kind, c.id, { annotations: c.annotations })
    case 'card.delete':
      return cards.deleteCard(tx, a, c.kind, c.id)
    case 'milestone.move':
      return cards.moveTopCard(tx, a, 'milestone', c.id, c)
    case 'workflow.move':
      return cards.moveTopCard(tx, a, 'workflow', c.id, c)
    case 'subworkflow.move':
      return cards.moveSubWorkflow(tx, a, c.id, c.toWorkflowId, c)
    case 'feature.move':
      return cards.moveFeature(tx, a, c.id, c.toSubWorkflowId, c.toMilestoneId, c)
    case 'feature.estimate':
      return cards.setEstimate(tx, a, c.id, c.estimate)
    case 'comment.create':
      return more.createComment(tx, a, c)
    case 'comment.edit':
      return more.editComment(tx, a, c.id, c.post)
    case 'comment.delete':
      return more.deleteComment(tx, a, c.id)
    case 'persona.create':
      return more.createPersona(tx, a, c)
    case 'persona.update':
      return more.updatePersona(tx, a, c.id, {
        avatar: c.avatar,
        name: c.name,
        role: c.role,
        description: c.description,
      })
    case 'persona.delete':
      return more.deletePersona(tx, a, c.id)
    case 'workflowPersona.create':
      return more.createWorkflowPersona(tx, a, c)
    case 'workflowPersona.delete':
      return more.deleteWorkflowPersona(tx, a, c.id)
    case 'tag.create':
      return tags.createTag(tx, a, c)
    case 'tag.rename':
      return tags.changeTag(tx, a, c.id, { name: c.name })
    case 'tag.color':
      return tags.changeTag(tx, a, c.id, { color: c.color })
    case 'tag.delete':
      return tags.deleteTag(tx, a, c.id)
    case 'feature.tags':
      return tags.setFeatureTags(tx, a, c.id, c.tagIds)
  }
}
