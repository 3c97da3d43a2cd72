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

export type Actor = { level: Level; planActive: boolean }

/**
 * The single table of who may do what. Reads, leaving, removals, billing and deletion keep
 * working when the plan has ended; everything that changes content needs an active plan.
 */
export function can({ level, planActive }: Actor, action: Action): boolean {
  switch (action) {
    case 'read':
      return true
    case 'leave':
      return level !== 'OWNER'
    case 'edit':
      return planActive && canEditLevel(level)
    case 'viewMembers':
    case 'cancelInvite':
    case 'removeMember':
    case 'manageTokens':
    case 'manageWebhooks':
      return atLeast(level, 'ADMIN')
    case 'invite':
    case 'resendInvite':
    case 'changeRole':
    case 'manageSharing':
      return planActive && atLeast(level, 'ADMIN')
    case 'manageBilling':
    case 'deleteWorkspace':
      return level === 'OWNER'
  }
}
