import { parse } from 'csv-parse/sync'
import {
  ANNOTATIONS,
  COLORS,
  DESCRIPTION_MAX,
  ESTIMATE_MAX,
  normalizeAnnotations,
  TAG_NAME_MAX,
  TITLE_MAX,
} from '~/features/map/vocabulary'
import { CSV_IMPORT_COLUMNS, unguardCell } from './csv-cells'
import { assertCardLimit, cardCount, ImportError, type ImportCard, type ImportedMap } from './import-map'

/**
 * Reads a storymap.csv (SPEC §9 columns, CONTRACT §8): columns are found by name in the header
 * (any order, any case, extra columns ignored); release_title, goal_title, activity_title and
 * feature_title are required, the other columns optional. Each row is one feature in its
 * release × goal × activity; releases, goals and activities are matched by title and keep the
 * order in which they first appear, features the order of their rows, which is the order the
 * export writes. A row whose feature_title is empty only declares its release, goal and activity.
 * Errors name the 1-based line where the row starts.
 */

export const REQUIRED_CSV_COLUMNS = [
  'release_title',
  'goal_title',
  'activity_title',
  'feature_title',
] as const
type Column = (typeof CSV_IMPORT_COLUMNS)[number]

const DELIMITERS = [',', ';', '\t'] as const

/** Spreadsheets in some locales write `;` or tabs: the delimiter is the one the header uses. */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r|\n|$/)).toLowerCase()
  return (
    DELIMITERS.find((d) =>
      header.split(d).some((cell) => cell.replace(/"/g, '').trim() === 'feature_title'),
    ) ?? ','
  )
}

/** What csv-parse hands `on_record` with `raw: true`. */
type RawRecord = { record: string[]; raw: string }

/** The line a record starts on: csv-parse counts the line it ends on, and a quoted value may span lines. */
function startLine(raw: string, endLine: number): number {
  const inner = raw.replace(/(\r\n|\n|\r)$/, '')
  return endLine - (inner.match(/\r\n|\n|\r/g)?.length ?? 0)
}

function columnIndexes(header: string[]): Partial<Record<Column, number>> {
  const found: Partial<Record<Column, number>> = {}
  header.forEach((name, i) => {
    const column = name.trim().toLowerCase() as Column
    if ((CSV_IMPORT_COLUMNS as readonly string[]).includes(column)) {
      if (found[column] !== undefined) throw new ImportError(`line 1: the column ${column} appears twice`)
      found[column] = i
    }
  })
  const missing = REQUIRED_CSV_COLUMNS.filter((c) => found[c] === undefined)
  if (missing.length > 0) {
    throw new ImportError(`line 1: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  }
  return found
}

const card = (title: string, color = ''): ImportCard => ({
  title,
  description: '',
  color,
  status: 'OPEN',
  annotations: '',
})

/** Reads one row's cells by column name, each with the formula guard removed. */
function rowReader(columns: Partial<Record<Column, number>>, cells: string[], line: number) {
  const value = (column: Column) => {
    const i = columns[column]
    return i === undefined ? '' : unguardCell(cells[i] ?? '')
  }
  const fail = (message: string): never => {
    throw new ImportError(`line ${line}: ${message}`)
  }
  const title = (column: Column) => {
    const text = value(column).trim()
    if (text === '') fail(`${column} is required`)
    if (text.length > TITLE_MAX) fail(`${column} must be at most ${TITLE_MAX} characters`)
    return text
  }
  return { value, fail, title }
}

function readFeature(row: ReturnType<typeof rowReader>, title: string): ImportCard & { estimate: number } {
  const description = row.value('feature_description')
  if (description.length > DESCRIPTION_MAX)
    row.fail(`feature_description must be at most ${DESCRIPTION_MAX} characters`)
  const status = row.value('feature_status').trim().toUpperCase() || 'OPEN'
  if (status !== 'OPEN' && status !== 'CLOSED') row.fail('feature_status must be OPEN or CLOSED')
  const color = row.value('feature_color').trim().toUpperCase()
  if (color !== '' && !(COLORS as readonly string[]).includes(color)) {
    row.fail(`feature_color must be empty or one of ${COLORS.join(', ')}`)
  }
  const annotations = normalizeAnnotations(row.value('feature_annotations').toUpperCase())
  if (annotations === null) row.fail(`feature_annotations may only list ${ANNOTATIONS.join(', ')}`)
  const size = row.value('feature_size').trim()
  if (size !== '' && !(/^\d{1,3}$/.test(size) && Number(size) <= ESTIMATE_MAX)) {
    row.fail(`feature_size must be a whole number 0–${ESTIMATE_MAX}`)
  }
  return {
    title,
    description,
    status: status as 'OPEN' | 'CLOSED',
    color,
    annotations: annotations!,
    estimate: size === '' ? 0 : Number(size),
  }
}

export function parseCsvImport(text: string): ImportedMap {
  if (text.trim() === '') throw new ImportError('the file is empty')
  const map: ImportedMap = {
    title: null,
    description: '',
    milestones: [],
    workflows: [],
    subWorkflows: [],
    features: [],
    comments: [],
    personas: [],
    workflowPersonas: [],
    tags: [],
  }
  // Tags by name, ignoring case (CONTRACT §12): new names become tags in BLUE.
  const tagIndex = new Map<string, number>()
  const tagsOf = (row: ReturnType<typeof rowReader>) => {
    const names = row
      .value('feature_tags')
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '')
    for (const name of names)
      if (name.length > TAG_NAME_MAX)
        row.fail(`feature_tags: a tag name must be at most ${TAG_NAME_MAX} characters`)
    return [
      ...new Set(
        names.map((name) =>
          indexOf(tagIndex, name.toLowerCase(), () => map.tags.push({ name, color: 'BLUE' }) - 1),
        ),
      ),
    ]
  }
  const releases = new Map<string, number>()
  const goals = new Map<string, number>()
  const activities = new Map<string, number>()
  const indexOf = (index: Map<string, number>, key: string, add: () => number) => {
    let i = index.get(key)
    if (i === undefined) index.set(key, (i = add()))
    return i
  }
  let columns: Partial<Record<Column, number>> | null = null

  // Rows are turned into cards as they are read (nothing else is kept), so a file of millions of
  // tiny rows costs no memory; the card limit is checked on the way.
  const onRecord = ({ record, raw }: RawRecord, { lines }: { lines: number }) => {
    if (columns === null) {
      columns = columnIndexes(record)
      return null
    }
    const row = rowReader(columns, record, startLine(raw, lines))
    const release = row.title('release_title')
    const goal = row.title('goal_title')
    const activity = row.title('activity_title')
    const featureTitle = row.value('feature_title').trim()
    const milestone = indexOf(releases, release, () => map.milestones.push(card(release)) - 1)
    const workflow = indexOf(goals, goal, () => map.workflows.push(card(goal, 'WHITE')) - 1)
    const subWorkflow = indexOf(
      activities,
      `${workflow}\u0000${activity}`,
      () => map.subWorkflows.push({ ...card(activity), workflow }) - 1,
    )
    if (featureTitle !== '')
      map.features.push({
        ...readFeature(row, row.title('feature_title')),
        milestone,
        subWorkflow,
        tags: tagsOf(row),
      })
    assertCardLimit(cardCount(map))
    return null
  }

  try {
    parse(text, {
      bom: true,
      delimiter: delimiterOf(text.replace(/^\uFEFF/, '')),
      raw: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      on_record: onRecord as never,
    })
  } catch (error) {
    if (error instanceof ImportError) throw error
    const { code, lines } = error as { code?: string; lines?: number }
    const at = typeof lines === 'number' ? `line ${lines}: ` : ''
    if (code === 'CSV_QUOTE_NOT_CLOSED') throw new ImportError(`${at}a quoted value is never closed`)
    if (typeof code === 'string')
      throw new ImportError(`${at}the file is not valid CSV (${(error as Error).message})`)
    throw error
  }
  if (columns === null) throw new ImportError('the file is empty')
  return map
}
