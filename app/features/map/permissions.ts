/** Member levels and what each may do (SPEC §6), combined with the plan state. */
export const LEVELS = ['VIEWER', 'EDITOR', 'ADMIN', 'OWNER'] as const
export type Level = (typeof LEVELS)[number]

/** How a level reads on screen; the API and the database keep the codes. */
export const LEVEL_NAMES: Record<Level, string> = {
  VIEWER: 'Viewer',
  EDITOR: 'Editor',
  ADMIN: 'Admin',
  OWNER: 'Owner',
}

export function isLevel(value: unknown): value is Level {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value)
}

export function levelRank(level: Level): number {
  return LEVELS.indexOf(level)
}

export function atLeast(level: Level, minimum: Level): boolean {
  return levelRank(level) >= levelRank(minimum)
}

/** EDITOR, ADMIN and OWNER can edit; an editor counts towards a paid plan's seats. */
export function canEditLevel(level: Level): boolean {
  return atLeast(level, 'EDITOR')
}

export type Action =
  | 'read'
  | 'edit'
  | 'leave'
  | 'viewMembers'
  | 'invite'
  | 'cancelInvite'
  | 'resendInvite'
  | 'changeRole'
  | 'removeMember'
  | 'manageSharing'
  | 'manageBilling'
  | 'deleteWorkspace'
  | 'manageTokens'
  | 'manageWebhooks'
  | 'manageTemplates'
  | 'useAssistant'
  | 'linkTracker'
  | 'manageMembers'
  | 'manageOwners'
  | 'hearOfTrackerFailures'
  | 'hearOfWebhookFailures'

export type Actor = { level: Level; planActive: boolean }

/**
 * The one table of who may do what: the lowest level allowed, whether the plan must be active,
 * and whether an owner is left out (an owner cannot leave) or alone in (billing, deletion).
 * Reads, leaving, removals, billing and deletion keep working when the plan has ended;
 * everything that changes content needs an active plan.
 */
type Rule = { min: Level; plan: boolean; owner?: 'only' | 'never' }
const RULES: Record<Action, Rule> = {
  read: { min: 'VIEWER', plan: false },
  leave: { min: 'VIEWER', plan: false, owner: 'never' },
  edit: { min: 'EDITOR', plan: true },
  viewMembers: { min: 'ADMIN', plan: false },
  manageMembers: { min: 'ADMIN', plan: false },
  // Making, unmaking or removing an owner, or inviting one, is an owner's own.
  manageOwners: { min: 'OWNER', plan: false },
  // Who is e-mailed when a tracker's sync stops (CONTRACT §13, §14) or a webhook endpoint is disabled (§10).
  hearOfTrackerFailures: { min: 'ADMIN', plan: false },
  hearOfWebhookFailures: { min: 'OWNER', plan: false },
  cancelInvite: { min: 'ADMIN', plan: false },
  removeMember: { min: 'ADMIN', plan: false },
  manageTokens: { min: 'ADMIN', plan: false },
  manageWebhooks: { min: 'ADMIN', plan: false },
  // Saving, renaming and deleting a workspace's map templates (CONTRACT §16).
  manageTemplates: { min: 'ADMIN', plan: true },
  // The assistant writes nothing, but what it suggests is meant to be added: editors only (CONTRACT §16).
  useAssistant: { min: 'EDITOR', plan: true },
  invite: { min: 'ADMIN', plan: true },
  resendInvite: { min: 'ADMIN', plan: true },
  changeRole: { min: 'ADMIN', plan: true },
  manageSharing: { min: 'ADMIN', plan: true },
  // A tracker (CONTRACT §13, §14) is linked, relinked and unlinked by OWNERs and ADMINs; pushes,
  // syncs and imports are `edit`. One rule for every provider, GitHub's §13 routes too.
  linkTracker: { min: 'ADMIN', plan: true },
  manageBilling: { min: 'OWNER', plan: false, owner: 'only' },
  deleteWorkspace: { min: 'OWNER', plan: false, owner: 'only' },
}

export function can({ level, planActive }: Actor, action: Action): boolean {
  const rule = RULES[action]
  if (rule.owner === 'never' && level === 'OWNER') return false
  return atLeast(level, rule.min) && (planActive || !rule.plan)
}

/** Whether a member of this level is an owner (the rules that keep a workspace's last owner ask it). */
export const isOwner = (level: Level) => level === 'OWNER'

/** The levels whose members may take `action` on an active plan, lowest first (for queries of who is told). */
export function levelsAllowed(action: Action): Level[] {
  return LEVELS.filter((level) => can({ level, planActive: true }, action))
}

/** The levels a member of `level` may give others (an owner's own level only by an owner). */
export function assignableLevels(level: Level): Level[] {
  return can({ level, planActive: true }, 'manageOwners') ? [...LEVELS] : LEVELS.filter((l) => !isOwner(l))
}

/**
 * The changes to a map, each authorized by the one door (app/features/map) with its row of
 * the table; the texts say why a refused caller may not.
 */
export const MAP_REFUSALS = {
  edit: 'Your member level does not allow editing.',
  manageSharing: 'Only an admin or owner can change sharing.',
  linkTracker: 'Only an admin or owner can link a tracker.',
  useAssistant: 'Your member level does not allow using the assistant.',
} as const
export type MapAction = keyof typeof MAP_REFUSALS
export const PLAN_INACTIVE_TEXT = 'The workspace plan is inactive: the workspace is view only.'

/** Why `actor` may not take a map action (code and text of the 403), or null when it may. */
export function mapRefusal(
  actor: Actor,
  action: MapAction,
): { code: 'plan_inactive' | 'level_too_low'; message: string } | null {
  if (can(actor, action)) return null
  if (!actor.planActive && can({ ...actor, planActive: true }, action))
    return { code: 'plan_inactive', message: PLAN_INACTIVE_TEXT }
  return { code: 'level_too_low', message: MAP_REFUSALS[action] }
}
