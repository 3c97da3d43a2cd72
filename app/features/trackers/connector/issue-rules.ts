import { COLOR_SWATCHES } from '~/features/map/colors'

/**
 * How a feature and its issue map onto each other on every tracker (CONTRACT §13, §14, ADR 26,
 * ADR 38). Pure: the issue's body (the description and the footer) from a feature and where it
 * sits on the map; a feature's fields from an issue; tags from labels; and the one conflict rule
 * for a field changed on both sides since the last sync.
 */

export const TITLE_MAX = 200
export const DESCRIPTION_MAX = 10000

/** Where a feature sits, for the footer of its issue. */
export type FeaturePlace = { permalink: string; release: string; goal: string; activity: string }

/** The footer's own line: `Story map: {permalink} · {release} · {goal} › {activity}`. */
export function footerLine(place: FeaturePlace): string {
  return `Story map: ${place.permalink} · ${place.release} · ${place.goal} › ${place.activity}`
}

/** An issue's body: the feature's description, then a line `---` and the footer line. */
export function issueBody(description: string, place: FeaturePlace): string {
  const footer = `---\n${footerLine(place)}`
  return description.trim() === '' ? footer : `${description.replace(/\s+$/, '')}\n\n${footer}`
}

const FOOTER = /(?:^|\n)---[ \t]*\r?\nStory map: [^\n]*\s*$/

/** The description part of an issue's body: what is above the `---` footer (all of it when there is none). */
export function descriptionOfBody(body: string | null | undefined): string {
  const text = (body ?? '').replace(/\r\n/g, '\n')
  const match = FOOTER.exec(text)
  const above = match ? text.slice(0, match.index) : text
  return above.replace(/\s+$/, '').slice(0, DESCRIPTION_MAX)
}

/** A feature title from an issue title (trimmed, at most 200 characters, never empty). */
export function titleOfIssue(title: string): string {
  const trimmed = title.trim().slice(0, TITLE_MAX)
  return trimmed === '' ? 'Untitled issue' : trimmed
}

export type IssueState = 'open' | 'closed'
export const stateOfStatus = (status: string): IssueState => (status === 'CLOSED' ? 'closed' : 'open')
export const statusOfState = (state: string): 'OPEN' | 'CLOSED' => (state === 'closed' ? 'CLOSED' : 'OPEN')

/** A set of label names as compared: lower-cased, unique, sorted, as JSON text. */
export function labelKey(names: readonly string[]): string {
  return JSON.stringify([...new Set(names.map((n) => n.trim().toLowerCase()).filter(Boolean))].sort())
}

/** A label's colour (six hex digits, GitHub's and GitLab's) for a tag colour. */
export function labelColor(tagColor: string): string {
  const swatch = COLOR_SWATCHES[tagColor as keyof typeof COLOR_SWATCHES]
  return (swatch?.fill ?? '#339af0').slice(1)
}

/**
 * A feature's tags for an issue's labels, matched by name ignoring case: the ids of the tags the
 * project has, and the names it lacks (to be made, in BLUE).
 */
export function tagsForLabels(labels: readonly string[], tags: readonly { id: string; name: string }[]) {
  const byName = new Map(tags.map((t) => [t.name.toLowerCase(), t.id]))
  const tagIds: string[] = []
  const missing: string[] = []
  for (const label of labels) {
    const name = label.trim().slice(0, 40).replaceAll(',', ' ')
    if (name === '') continue
    const id = byName.get(name.toLowerCase())
    if (id) {
      if (!tagIds.includes(id)) tagIds.push(id)
    } else if (!missing.some((m) => m.toLowerCase() === name.toLowerCase())) missing.push(name)
  }
  return { tagIds, missing }
}

/** The fields that travel both ways. */
export const SYNCED_FIELDS = ['title', 'body', 'state', 'labels'] as const
export type SyncedField = (typeof SYNCED_FIELDS)[number]
export type SyncedValues = Record<SyncedField, string>

/**
 * What to do with one field, given what both sides last agreed on and what each shows now:
 * - `none`: GitHub did not change it (a change on the map, if any, is pushed by the outbox);
 * - `pull`: only GitHub changed it;
 * - `github-later` / `map-later`: both changed it to different values; the later change wins.
 */
export type FieldDecision = 'none' | 'pull' | 'github-later' | 'map-later'

export function decideField(input: {
  synced: string
  github: string
  map: string
  githubAt: string
  mapAt: string
}): FieldDecision {
  if (input.github === input.synced || input.github === input.map) return 'none'
  if (input.map === input.synced) return 'pull'
  return Date.parse(input.githubAt) > Date.parse(input.mapAt) ? 'github-later' : 'map-later'
}

/** The values of both sides, and when each last changed. */
export type SyncSides = {
  synced: SyncedValues
  github: SyncedValues
  map: SyncedValues
  githubAt: string
  mapAt: string
}

/** Each field's decision. */
export function decideFields(sides: SyncSides): Record<SyncedField, FieldDecision> {
  const out = {} as Record<SyncedField, FieldDecision>
  for (const field of SYNCED_FIELDS)
    out[field] = decideField({
      synced: sides.synced[field],
      github: sides.github[field],
      map: sides.map[field],
      githubAt: sides.githubAt,
      mapAt: sides.mapAt,
    })
  return out
}

const quote = (text: string) => `'${text}'`

/**
 * The activity line of a pull from GitHub: what changed on the feature, and, when the same field
 * had changed on both sides, which change won.
 */
export function pullSummary(
  before: { title: string },
  after: { title: string },
  decisions: Record<SyncedField, FieldDecision>,
  stateAfter: IssueState,
): string {
  const taken = SYNCED_FIELDS.filter((f) => decisions[f] === 'pull' || decisions[f] === 'github-later')
  const parts: string[] = []
  if (taken.includes('title')) parts.push(`renamed feature ${quote(before.title)} to ${quote(after.title)}`)
  if (taken.includes('state'))
    parts.push(`${stateAfter === 'closed' ? 'closed' : 'reopened'} feature ${quote(after.title)}`)
  if (taken.includes('body')) parts.push(`changed the description of feature ${quote(after.title)}`)
  if (taken.includes('labels')) parts.push(`changed the tags of feature ${quote(after.title)}`)
  const sentence = parts.length === 0 ? `Updated feature ${quote(after.title)}` : parts.join(', ')
  const line = sentence.charAt(0).toUpperCase() + sentence.slice(1)
  return line + conflictNote(decisions)
}

/** ` (changed on both sides: GitHub's change was later)`, or nothing when no field conflicted. */
export function conflictNote(decisions: Record<SyncedField, FieldDecision>): string {
  const github = SYNCED_FIELDS.filter((f) => decisions[f] === 'github-later')
  const map = SYNCED_FIELDS.filter((f) => decisions[f] === 'map-later')
  const notes = []
  if (github.length > 0)
    notes.push(`${github.join(' and ')} changed on both sides, GitHub's change was later and wins`)
  if (map.length > 0)
    notes.push(`${map.join(' and ')} changed on both sides, Storymap's change was later and wins`)
  return notes.length > 0 ? ` (${notes.join('; ')})` : ''
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** The issue fields a feature's change touches (a move changes the body's footer). */
export function changedIssueFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): SyncedField[] {
  if (!after) return []
  if (!before) return ['title', 'body', 'state', 'labels']
  const fields: SyncedField[] = []
  if (before.title !== after.title) fields.push('title')
  if (
    before.description !== after.description ||
    before.milestoneId !== after.milestoneId ||
    before.subWorkflowId !== after.subWorkflowId
  )
    fields.push('body')
  if (before.status !== after.status) fields.push('state')
  if (!same(before.tagIds, after.tagIds)) fields.push('labels')
  return fields
}

/** The fields of an issue a push brings to the feature (SYNCED_FIELDS, and the release and size). */
export type PushedField = SyncedField | 'release' | 'size'

/** The issue fields a feature's change touches: §13's four (a move changes the body's footer), the release and the size. */
export function followedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): PushedField[] {
  const fields: PushedField[] = changedIssueFields(before, after)
  if (!same(before?.milestoneId, after?.milestoneId)) fields.push('release')
  if (!same(before?.estimate, after?.estimate)) fields.push('size')
  return fields
}

/**
 * The issue fields a waiting push brings to the feature, from its rows' `fields` (rows queued by
 * the connector before issue 46 name the feature's fields: they are read too).
 */
export function pushedFields(rowFields: readonly string[]): PushedField[] {
  const out = new Set<PushedField>()
  for (const field of rowFields) {
    if (field === 'title') out.add('title')
    if (field === 'description' || field === 'body' || field === 'milestoneId' || field === 'subWorkflowId')
      out.add('body')
    if (field === 'status' || field === 'state') out.add('state')
    if (field === 'tagIds' || field === 'labels') out.add('labels')
    if (field === 'milestoneId' || field === 'release') out.add('release')
    if (field === 'estimate' || field === 'size') out.add('size')
  }
  return [...out]
}
