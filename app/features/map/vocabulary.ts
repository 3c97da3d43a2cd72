/**
 * The story map's fixed vocabularies and limits (SPEC §3–5), without zod, so the board's
 * browser code can use them without loading the validation library. board-commands.ts
 * re-exports everything here next to the command schemas.
 */

export const COLORS = [
  'WHITE',
  'GREY',
  'RED',
  'ORANGE',
  'YELLOW',
  'GREEN',
  'TEAL',
  'BLUE',
  'INDIGO',
  'PURPLE',
  'PINK',
] as const
export type Color = (typeof COLORS)[number] | ''

export const ANNOTATIONS = [
  'RISKY',
  'UNCLEAR',
  'SPLIT',
  'DEPENDENCY',
  'BLOCKED',
  'DISCUSSION',
  'REJECTED',
  'IDEA',
  'RESEARCH',
] as const
export type Annotation = (typeof ANNOTATIONS)[number]
export const ANNOTATION_LABELS: Record<Annotation, string> = {
  RISKY: 'Risky',
  UNCLEAR: 'Unclear',
  SPLIT: 'Can be split',
  DEPENDENCY: 'Has dependencies',
  BLOCKED: 'Blocked',
  DISCUSSION: 'Discussion needed',
  REJECTED: 'Rejected',
  IDEA: 'Idea',
  RESEARCH: 'Research needed',
}

export const AVATARS = [
  'avatar00',
  'avatar01',
  'avatar02',
  'avatar03',
  'avatar04',
  'avatar05',
  'avatar06',
  'avatar07',
  'avatar08',
] as const

/** The four kinds of card; a project shares rename and description with them. */
export const CARD_KINDS = ['milestone', 'workflow', 'subworkflow', 'feature'] as const
export type CardKind = (typeof CARD_KINDS)[number]
export const TITLED_KINDS = [...CARD_KINDS, 'project'] as const
export type TitledKind = (typeof TITLED_KINDS)[number]

export const TITLE_MAX = 200
export const DESCRIPTION_MAX = 10000
export const COMMENT_MAX = 10000
export const ESTIMATE_MAX = 999

/**
 * Parses a comma-separated annotation list into canonical form (known names, no duplicates,
 * in ANNOTATIONS order), or null when it names an unknown annotation.
 */
export function normalizeAnnotations(value: string): string | null {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (names.some((n) => !(ANNOTATIONS as readonly string[]).includes(n))) return null
  return ANNOTATIONS.filter((a) => names.includes(a)).join(',')
}

export function annotationList(value: string): Annotation[] {
  if (value === '') return []
  const names = value.split(',')
  return ANNOTATIONS.filter((a) => names.includes(a))
}

/** A tag's name (CONTRACT §12): trimmed, 1–40 characters, no commas (CSV keeps names comma-separated). */
export const TAG_NAME_MAX = 40
export function tagNameProblem(name: string): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'Name required.'
  if (trimmed.length > TAG_NAME_MAX) return `Maximum ${TAG_NAME_MAX} characters.`
  if (trimmed.includes(',')) return 'A tag name has no commas.'
  return null
}
