import { z } from 'zod'
import {
  annotationsSchema,
  avatarSchema,
  colorSchema,
  descriptionSchema,
  personaNameSchema,
  personaRoleSchema,
  postSchema,
  estimateSchema,
  tagColorSchema,
  tagNameSchema,
  titleSchema,
} from '~/features/board'
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../map/export-format'
import { assertCardLimit, formatPath, ImportError, type ImportCard, type ImportedMap } from './import-map'

/**
 * Reads a Storymap JSON export (CONTRACT §8) into an ImportedMap. The file is checked with zod
 * against the bundle's shapes (fields the import does not keep, such as times and authors of
 * cards, are ignored); references between entities must resolve. Errors name the path of the
 * bad field as it is in the file, e.g. `features[12].milestoneId`. Cards are ordered by their
 * rank within their list, so an export comes back in its order; a hand-made file without ranks
 * keeps the order of its lists.
 */

const ref = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters')
const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time' })

const card = {
  id: ref,
  rank: z.string().max(200).optional(),
  title: titleSchema,
  description: descriptionSchema.default(''),
  color: colorSchema.default(''),
  status: z.enum(['OPEN', 'CLOSED'], { error: 'must be OPEN or CLOSED' }).default('OPEN'),
  annotations: annotationsSchema.default(''),
}

export const exportFileSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  formatVersion: z.literal(EXPORT_FORMAT_VERSION),
  project: z.object({ title: titleSchema, description: descriptionSchema.default('') }),
  milestones: z.array(z.object(card)).default([]),
  workflows: z.array(z.object(card)).default([]),
  subWorkflows: z.array(z.object({ ...card, workflowId: ref })).default([]),
  features: z
    .array(
      z.object({
        ...card,
        milestoneId: ref,
        subWorkflowId: ref,
        estimate: estimateSchema.default(0),
        tagIds: z.array(ref).max(100).default([]),
      }),
    )
    .default([]),
  featureComments: z
    .array(
      z.object({
        featureId: ref,
        memberId: z.string().max(200).default(''),
        post: postSchema,
        createdAt: isoTime,
        createdByName: z.string().max(200).default(''),
        lastModified: isoTime.optional(),
      }),
    )
    .default([]),
  personas: z
    .array(
      z.object({
        id: ref,
        avatar: avatarSchema.default('avatar00'),
        name: personaNameSchema,
        role: personaRoleSchema.default(''),
        description: descriptionSchema.default(''),
        createdAt: isoTime.optional(),
      }),
    )
    .default([]),
  workflowPersonas: z.array(z.object({ personaId: ref, workflowId: ref })).default([]),
  tags: z.array(z.object({ id: ref, name: tagNameSchema, color: tagColorSchema })).default([]),
})
type ExportFile = z.output<typeof exportFileSchema>

/**
 * JSON.parse of a 10 MB file of tiny values (`[{},{},…]`) builds millions of objects, enough
 * to exhaust the server's heap; an export of 20,000 cards has well under a million values.
 */
export const MAX_JSON_VALUES = 1_000_000

/** Counts the values (`,`, `{` and `[` outside strings) without building them. */
function countValues(text: string): number {
  let count = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 44 || c === 123 || c === 91) count++
  }
  return count
}

export function parseJsonImport(text: string): ImportedMap {
  if (text.trim() === '') throw new ImportError('the file is empty')
  if (countValues(text) > MAX_JSON_VALUES) {
    throw new ImportError(`the file holds more than ${MAX_JSON_VALUES.toLocaleString('en')} values`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ImportError(`the file is not valid JSON (${(error as Error).message})`)
  }
  return importExport(value)
}

const CARD_LISTS = ['milestones', 'workflows', 'subWorkflows', 'features'] as const

/** Checks a parsed export and resolves its references. */
export function importExport(value: unknown): ImportedMap {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ImportError('the file is not a Storymap export (a JSON object with "format": "storymap")')
  }
  const file = value as Record<string, unknown>
  if (file.format !== EXPORT_FORMAT) {
    throw new ImportError(`format: must be "${EXPORT_FORMAT}" (the file is not a Storymap export)`)
  }
  if (file.formatVersion !== EXPORT_FORMAT_VERSION) {
    throw new ImportError(
      `formatVersion: ${JSON.stringify(file.formatVersion) ?? 'missing'} is not supported; this Storymap reads version ${EXPORT_FORMAT_VERSION}`,
    )
  }
  assertCardLimit(CARD_LISTS.reduce((n, list) => n + (Array.isArray(file[list]) ? file[list].length : 0), 0))
  const result = exportFileSchema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new ImportError(`${formatPath(issue.path) || 'the file'}: ${issue.message}`)
  }
  return resolve(result.data)
}

/** Id → index in its list; an id used twice in one list is refused. */
function indexById(list: readonly { id: string }[], name: string): Map<string, number> {
  const index = new Map<string, number>()
  list.forEach(({ id }, i) => {
    if (index.has(id)) throw new ImportError(`${name}[${i}].id: ${name}[${index.get(id)}] has the same id`)
    index.set(id, i)
  })
  return index
}

/** The list's indexes in board order: by rank (stable, so equal or missing ranks keep the file's order). */
function boardOrder(list: readonly { rank?: string }[]): number[] {
  const order = list.map((_, i) => i)
  return order.sort((a, b) => {
    const [ra, rb] = [list[a].rank ?? '', list[b].rank ?? '']
    return ra < rb ? -1 : ra > rb ? 1 : a - b
  })
}

/** Times are stored as UTC ISO strings, so they sort as text. */
const isoUtc = (time: string) => new Date(time).toISOString()

const pickCard = (c: ImportCard): ImportCard => ({
  title: c.title,
  description: c.description,
  color: c.color,
  status: c.status,
  annotations: c.annotations,
})

function resolve(file: ExportFile): ImportedMap {
  /** For each list: the file index of every card, in board order, and each file index's new position. */
  const ordered = <T extends { id: string; rank?: string }>(list: T[], name: string) => {
    const ids = indexById(list, name)
    const order = boardOrder(list)
    const position = new Array<number>(list.length)
    order.forEach((fileIndex, i) => (position[fileIndex] = i))
    const find = (id: string, path: string, what: string) => {
      const i = ids.get(id)
      if (i === undefined) throw new ImportError(`${path}: no ${what} has the id ${JSON.stringify(id)}`)
      return position[i]
    }
    return { order, find }
  }
  const milestones = ordered(file.milestones, 'milestones')
  const workflows = ordered(file.workflows, 'workflows')
  const subWorkflows = ordered(file.subWorkflows, 'subWorkflows')
  const features = ordered(file.features, 'features')
  const personas = indexById(file.personas, 'personas')
  const tags = indexById(file.tags, 'tags')
  const tagNames = new Map<string, number>()
  file.tags.forEach((t, i) => {
    const same = tagNames.get(t.name.toLowerCase())
    if (same !== undefined) throw new ImportError(`tags[${i}].name: tags[${same}] has the same name`)
    tagNames.set(t.name.toLowerCase(), i)
  })

  const links = new Set<string>()
  return {
    title: file.project.title,
    description: file.project.description,
    milestones: milestones.order.map((i) => pickCard(file.milestones[i])),
    workflows: workflows.order.map((i) => pickCard(file.workflows[i])),
    subWorkflows: subWorkflows.order.map((i) => {
      const s = file.subWorkflows[i]
      return {
        ...pickCard(s),
        workflow: workflows.find(s.workflowId, `subWorkflows[${i}].workflowId`, 'goal'),
      }
    }),
    features: features.order.map((i) => {
      const f = file.features[i]
      return {
        ...pickCard(f),
        estimate: f.estimate,
        milestone: milestones.find(f.milestoneId, `features[${i}].milestoneId`, 'release'),
        subWorkflow: subWorkflows.find(f.subWorkflowId, `features[${i}].subWorkflowId`, 'activity'),
        tags: [
          ...new Set(
            f.tagIds.map((id, k) => {
              const tag = tags.get(id)
              if (tag === undefined)
                throw new ImportError(`features[${i}].tagIds[${k}]: no tag has the id ${JSON.stringify(id)}`)
              return tag
            }),
          ),
        ],
      }
    }),
    comments: file.featureComments.map((c, i) => ({
      feature: features.find(c.featureId, `featureComments[${i}].featureId`, 'feature'),
      memberId: c.memberId,
      post: c.post,
      createdAt: isoUtc(c.createdAt),
      createdByName: c.createdByName,
      lastModified: isoUtc(c.lastModified ?? c.createdAt),
    })),
    personas: file.personas.map((p) => ({
      avatar: p.avatar,
      name: p.name,
      role: p.role,
      description: p.description,
      createdAt: p.createdAt ? isoUtc(p.createdAt) : null,
    })),
    workflowPersonas: file.workflowPersonas.map((wp, i) => {
      const persona = personas.get(wp.personaId)
      if (persona === undefined) {
        throw new ImportError(
          `workflowPersonas[${i}].personaId: no persona has the id ${JSON.stringify(wp.personaId)}`,
        )
      }
      const workflow = workflows.find(wp.workflowId, `workflowPersonas[${i}].workflowId`, 'goal')
      const key = `${workflow}:${persona}`
      if (links.has(key))
        throw new ImportError(`workflowPersonas[${i}]: this persona is already on this goal`)
      links.add(key)
      return { workflow, persona }
    }),
    tags: file.tags.map((t) => ({ name: t.name, color: t.color })),
  }
}
