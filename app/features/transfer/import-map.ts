/**
 * What an import file (a Storymap JSON export or a storymap.csv) holds once read and checked
 * (CONTRACT §8), before it becomes a project: every list in board order, parents named by their
 * position in their list, no ids, ranks or times of cards. The JSON and CSV readers produce it;
 * the import model (app/features/transfer/import.server.ts) gives it new ids and fresh ranks.
 * Pure: used by the server and by the import dialog's preview.
 */

/** Goals, activities, releases and features together (comments and personas do not count). */
export const MAX_IMPORT_CARDS = 20_000

export type ImportCard = {
  title: string
  description: string
  color: string
  status: 'OPEN' | 'CLOSED'
  annotations: string
}

export type ImportedMap = {
  /** The project's title in the file (a CSV has none). */
  title: string | null
  description: string
  milestones: ImportCard[]
  workflows: ImportCard[]
  /** `workflow`: index in `workflows`. Siblings keep their order in this list. */
  subWorkflows: (ImportCard & { workflow: number })[]
  /** `milestone`, `subWorkflow`: indexes. Features of one cell keep their order in this list. */
  /** `tags`: indexes in `tags`. */
  features: (ImportCard & { milestone: number; subWorkflow: number; estimate: number; tags: number[] })[]
  comments: {
    feature: number
    /** The author's member id in the file; kept only when it is a member of the target workspace. */
    memberId: string
    post: string
    createdAt: string
    createdByName: string
    lastModified: string
  }[]
  personas: { avatar: string; name: string; role: string; description: string; createdAt: string | null }[]
  workflowPersonas: { workflow: number; persona: number }[]
  /** The project's tags (CONTRACT §12), names unique ignoring case. */
  tags: { name: string; color: string }[]
}

/** A refusal of the file: the message names the line (CSV) or the path of the field (JSON). */
export class ImportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportError'
  }
}

export function cardCount(map: Pick<ImportedMap, 'milestones' | 'workflows' | 'subWorkflows' | 'features'>) {
  return map.milestones.length + map.workflows.length + map.subWorkflows.length + map.features.length
}

export function assertCardLimit(cards: number) {
  if (cards > MAX_IMPORT_CARDS) {
    throw new ImportError(
      `the file holds ${cards.toLocaleString('en')} cards (goals, activities, releases and features); ` +
        `at most ${MAX_IMPORT_CARDS.toLocaleString('en')} can be imported`,
    )
  }
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`

/** The import dialog's preview: `3 goals, 8 activities, 4 releases, 61 features`. */
export function describeImport(map: ImportedMap): string {
  return [
    plural(map.workflows.length, 'goal', 'goals'),
    plural(map.subWorkflows.length, 'activity', 'activities'),
    plural(map.milestones.length, 'release', 'releases'),
    plural(map.features.length, 'feature', 'features'),
  ].join(', ')
}

/** A JSON path as people read it: `features[12].milestoneId`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out
}
