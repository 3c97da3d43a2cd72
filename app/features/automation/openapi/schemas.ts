import { z } from 'zod'
import 'zod-openapi'
import { TOKEN_SCOPES } from '~/features/automation/api-tokens'
import { ANNOTATIONS, AVATARS, COLORS } from '~/features/map/vocabulary'
import { LEVELS } from '~/features/map/permissions'
import { PLAN_LEVELS } from '~/features/map/plan'

/**
 * What /v1 answers, as zod schemas for the OpenAPI document (CONTRACT §3, §6–§10). The server
 * builds these objects itself; the integration tests validate real answers against the JSON
 * Schema made from them, so a field added to an answer must be added here too.
 */

const uuid = z.string().meta({ format: 'uuid' })
const time = z.string().meta({ format: 'date-time' })
const nullableTime = time.nullable()

export const errorSchema = z
  .object({
    error: z
      .string()
      .meta({ description: 'A stable code, e.g. `title_invalid`, `not_found`, `invalid_token`.' }),
    message: z.string().meta({ description: 'An English sentence for people.' }),
  })
  .meta({ id: 'Error', description: 'The one error shape of /v1.' })

export const emptySchema = z.object({}).meta({ id: 'Empty', description: 'No content: `{}`.' })

export const colorSchema = z
  .enum([...COLORS, ''])
  .meta({ id: 'Color', description: 'A card colour; `""` is none.' })
const annotationsText = z.string().meta({
  description: `Comma-separated annotation codes, in this order: ${ANNOTATIONS.join(', ')}.`,
})
const status = z.enum(['OPEN', 'CLOSED'])

const authorship = {
  createdAt: time,
  createdBy: z.string(),
  createdByName: z.string(),
  lastModified: time,
  lastModifiedByName: z.string(),
}

const cardFields = {
  id: uuid,
  workspaceId: uuid,
  rank: z.string().meta({ description: 'Sort key within its list (cards are listed by rank).' }),
  title: z.string(),
  description: z.string(),
  ...authorship,
  color: colorSchema,
  status,
  annotations: annotationsText,
}

/** A project's link to a GitHub repository (CONTRACT §13): never the token or the webhook secret. */
export const githubLinkSchema = z
  .object({
    repository: z.string().meta({ description: '`owner/name`.' }),
    linkedAt: time,
    linkedBy: z.object({ memberId: uuid, name: z.string() }),
    status: z.enum(['ok', 'token_invalid', 'repository_missing', 'rate_limited', 'unreachable']).meta({
      description:
        '`token_invalid`: GitHub refused the token and sync stopped (link again); `rate_limited` and `unreachable` resume by themselves.',
    }),
    lastSyncAt: time.nullable(),
    error: z.string().nullable().meta({ description: "GitHub's message for the last failure." }),
  })
  .meta({ id: 'GithubLink' })

/** A project's tracker link, whichever tracker (CONTRACT §14). */
export const trackerLinkSchema = z
  .object({
    provider: z.enum(['github', 'gitlab', 'jira']),
    url: z.string().meta({ description: "The tracker's address (`https://github.com` for GitHub)." }),
    project: z.string().meta({ description: 'GitHub `owner/name`, GitLab `group/sub/name`, Jira `KEY`.' }),
    linkedAt: time,
    linkedBy: z.object({ memberId: uuid, name: z.string() }),
    status: z
      .enum(['ok', 'token_invalid', 'project_missing', 'rate_limited', 'unreachable', 'token_expiring'])
      .meta({
        description:
          '`token_invalid`: the token was refused and sync stopped (link again); `token_expiring`: `tokenExpiresAt` is within 14 days (sync goes on).',
      }),
    lastSyncAt: time.nullable(),
    error: z.string().nullable().meta({ description: "The tracker's message for the last failure." }),
    tokenExpiresAt: time.nullable().meta({ description: "GitLab's token expiry where it says; else null." }),
  })
  .meta({ id: 'TrackerLink' })

/** A feature's issue on the linked tracker (CONTRACT §14). */
export const featureTrackerIssueSchema = z
  .object({
    provider: z.enum(['github', 'gitlab', 'jira']),
    key: z.string().meta({ description: '`#12` (GitHub, GitLab) or `SHOP-12` (Jira).' }),
    url: z.string(),
    state: z.enum(['open', 'closed', 'missing']),
    status: z.string().nullable().meta({ description: "Jira's status name; null elsewhere." }),
  })
  .meta({ id: 'FeatureTrackerIssue' })

/** A feature's GitHub issue (CONTRACT §13). */
export const featureGithubSchema = z
  .object({
    number: z.int(),
    url: z.string(),
    state: z
      .enum(['open', 'closed', 'missing'])
      .meta({ description: '`missing`: the issue was deleted or moved away.' }),
  })
  .meta({ id: 'FeatureGithub' })

export const projectSchema = z
  .object({
    kind: z.literal('project'),
    id: uuid,
    workspaceId: uuid,
    title: z.string(),
    description: z.string(),
    ...authorship,
    externalLink: z.string().meta({ description: 'The key of the public link: `/link/{externalLink}`.' }),
    github: githubLinkSchema
      .nullable()
      .optional()
      .meta({ description: 'In the bundle: its GitHub repository, or null. Not on the public link.' }),
    tracker: trackerLinkSchema
      .nullable()
      .optional()
      .meta({ description: 'In the bundle: its tracker (CONTRACT §14), or null. Not on the public link.' }),
  })
  .meta({ id: 'Project' })

export const milestoneSchema = z
  .object({ kind: z.literal('milestone'), ...cardFields, projectId: uuid })
  .meta({ id: 'Milestone', description: 'A release (a row of the map).' })
export const workflowSchema = z
  .object({ kind: z.literal('workflow'), ...cardFields, projectId: uuid })
  .meta({ id: 'Workflow', description: 'A goal (a column group at the top of the map).' })
export const subWorkflowSchema = z
  .object({ kind: z.literal('subworkflow'), ...cardFields, projectId: uuid, workflowId: uuid })
  .meta({ id: 'SubWorkflow', description: 'An activity under a goal (a column).' })
export const featureSchema = z
  .object({
    kind: z.literal('feature'),
    ...cardFields,
    projectId: uuid,
    subWorkflowId: uuid,
    milestoneId: uuid,
    estimate: z.int().min(0).meta({ description: 'The size; 0 is none.' }),
    tagIds: z.array(uuid).meta({ description: "The project's tags on it." }),
    github: featureGithubSchema
      .nullable()
      .optional()
      .meta({ description: 'Its GitHub issue, or null. Not on the public link.' }),
    issue: featureTrackerIssueSchema
      .nullable()
      .optional()
      .meta({ description: 'Its issue on the linked tracker, or null. Not on the public link.' }),
  })
  .meta({ id: 'Feature', description: 'A feature card, in the cell of an activity and a release.' })
export const commentSchema = z
  .object({
    kind: z.literal('featureComment'),
    id: uuid,
    workspaceId: uuid,
    featureId: uuid,
    projectId: uuid,
    memberId: uuid,
    post: z.string(),
    createdAt: time,
    createdByName: z.string(),
    lastModified: time,
  })
  .meta({ id: 'FeatureComment' })
export const personaSchema = z
  .object({
    kind: z.literal('persona'),
    id: uuid,
    workspaceId: uuid,
    projectId: uuid,
    avatar: z.enum(AVATARS),
    name: z.string(),
    role: z.string(),
    description: z.string(),
    createdAt: time,
  })
  .meta({ id: 'Persona' })
export const workflowPersonaSchema = z
  .object({
    kind: z.literal('workflowPersona'),
    id: uuid,
    personaId: uuid,
    projectId: uuid,
    workflowId: uuid,
    workspaceId: uuid,
  })
  .meta({ id: 'WorkflowPersona', description: 'A persona put on a goal.' })

export const tagSchema = z
  .object({
    kind: z.literal('tag'),
    id: uuid,
    workspaceId: uuid,
    projectId: uuid,
    name: z.string(),
    color: z.enum(COLORS),
  })
  .meta({ id: 'Tag', description: "A project's tag (CONTRACT §12)." })

/** Any card a trash restore can answer. */
export const cardEntitySchema = z
  .union([projectSchema, milestoneSchema, workflowSchema, subWorkflowSchema, featureSchema])
  .meta({ id: 'CardEntity' })

const bundleLists = {
  milestones: z.array(milestoneSchema),
  workflows: z.array(workflowSchema),
  subWorkflows: z.array(subWorkflowSchema),
  features: z.array(featureSchema),
  featureComments: z.array(commentSchema),
  personas: z.array(personaSchema),
  workflowPersonas: z.array(workflowPersonaSchema),
  tags: z.array(tagSchema).meta({ description: 'By name.' }),
}

export const bundleSchema = z
  .object({
    version: z.int().min(0).meta({ description: 'How many changes the project has had (CONTRACT §6).' }),
    project: projectSchema,
    ...bundleLists,
  })
  .meta({
    id: 'ProjectBundle',
    description: 'A whole map; every list sorted (cards by rank, personas by name, comments newest first).',
  })

export const exportFileSchema = z
  .object({
    format: z.literal('storymap'),
    formatVersion: z.literal(1),
    exportedAt: time,
    project: projectSchema.omit({ externalLink: true }),
    ...bundleLists,
  })
  .meta({ id: 'ExportFile', description: 'A project as a file (CONTRACT §8); without the share link.' })

export const accountSchema = z
  .object({
    id: uuid,
    name: z.string(),
    email: z.string().meta({ format: 'email' }),
    emailConfirmed: z.boolean(),
    emailConfirmationPending: z.boolean(),
    emailConfirmationSentTo: z.string(),
  })
  .meta({ id: 'Account' })

export const workspaceSchema = z
  .object({
    id: uuid,
    name: z.string(),
    createdAt: time,
    allowExternalSharing: z.boolean(),
    euVat: z.string(),
    externalBillingEmail: z.string(),
  })
  .meta({ id: 'Workspace' })

const level = z.enum(LEVELS)

export const subscriptionSchema = z
  .object({
    id: uuid,
    workspaceId: uuid,
    level: z.enum(PLAN_LEVELS),
    externalStatus: z.string(),
    numberOfEditors: z.int(),
    fromDate: time,
    expirationDate: nullableTime,
    cancelAtPeriodEnd: z.boolean(),
  })
  .meta({ id: 'Subscription' })

export const memberSchema = z
  .object({ id: uuid, accountId: uuid, name: z.string(), email: z.string(), level, createdAt: time })
  .meta({ id: 'Member' })

export const appStateSchema = z
  .object({
    mode: z.enum(['selfhosted', 'hosted']),
    account: accountSchema,
    workspaces: z.array(workspaceSchema),
    memberships: z.array(memberSchema.extend({ workspaceId: uuid })),
    subscriptions: z.array(subscriptionSchema),
  })
  .meta({ id: 'AppState' })

export const inviteSchema = z
  .object({ id: uuid, email: z.string(), level, createdByName: z.string(), createdAt: time })
  .meta({ id: 'Invite' })

export const invitationSchema = z
  .object({ workspaceName: z.string(), level })
  .meta({ id: 'Invitation', description: 'What an invitation offers.' })

export const acceptedInvitationSchema = z
  .object({ workspaceId: uuid, workspaceName: z.string(), level })
  .meta({ id: 'AcceptedInvitation' })

export const tokenSchema = z
  .object({
    id: uuid,
    name: z.string(),
    workspaceId: uuid,
    scope: z.enum(TOKEN_SCOPES),
    prefix: z.string().meta({ description: 'The first 8 characters of the secret (`smp_` and 4 more).' }),
    createdAt: time,
    expiresAt: nullableTime,
    lastUsedAt: nullableTime,
  })
  .meta({ id: 'ApiToken' })

export const workspaceTokenSchema = tokenSchema
  .extend({ member: z.object({ id: uuid, name: z.string(), email: z.string() }) })
  .meta({
    id: 'WorkspaceApiToken',
    description: "A member's token, as the workspace's owners and admins see it.",
  })

const author = z
  .object({
    memberId: z.string(),
    name: z.string(),
    via: z.string().optional().meta({ description: 'The API token the change was made with, by name.' }),
  })
  .meta({ id: 'Author' })

export const activitySchema = z
  .object({
    items: z.array(z.object({ version: z.int(), at: time, by: author, summary: z.string() })),
    next: z.int().nullable().meta({ description: 'Pass as `before` for the next page; null at the end.' }),
  })
  .meta({ id: 'Activity' })

export const historyStepSchema = z
  .object({ version: z.int(), summary: z.string() })
  .meta({ id: 'HistoryStep', description: 'The change an undo or redo made.' })

export const trashSchema = z
  .object({
    items: z.array(
      z.object({
        id: uuid,
        kind: z.enum(['project', 'milestone', 'workflow', 'subWorkflow', 'feature']),
        title: z.string(),
        deletedAt: time,
        deletedBy: z.object({ memberId: z.string(), name: z.string() }),
        cards: z.int().min(1),
      }),
    ),
  })
  .meta({ id: 'Trash' })

export const sharingSchema = z
  .object({ enabled: z.boolean(), externalLink: z.string() })
  .meta({ id: 'ProjectSharing' })

export const checkoutSessionSchema = z
  .object({ id: z.string(), url: z.string() })
  .meta({ id: 'CheckoutSession' })

export const liveStreamSchema = z.string().meta({
  description:
    'Server-Sent Events: `ready`, then `change` events `{version, at, by, changes}`, `presence`, `reset` (CONTRACT §6).',
})
