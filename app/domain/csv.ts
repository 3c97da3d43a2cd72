import { stringify } from 'csv-stringify/sync'
import { buildGrid, cellKey } from './board-grid'
import type { ProjectBundle } from './board-types'

export const CSV_FILENAME = 'storymap.csv'
export const CSV_COLUMNS = [
  'release_title',
  'goal_title',
  'activity_title',
  'feature_title',
  'feature_description',
  'feature_status',
  'feature_color',
  'feature_annotations',
  'feature_size',
] as const

/** A cell a spreadsheet would run as a formula starts with one of these (CONTRACT §8). */
const FORMULA_START = /^[=+\-@\t\r]/

/** Export: a cell that a spreadsheet would read as a formula gets a leading `'`. */
export function guardCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value
}

/** Import: the reverse, removing one leading `'` where a formula character follows it. */
export function unguardCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value
}

/**
 * SPEC §9 export: one row per feature in board order (release, then goal, then activity, then
 * the card's place in its cell), closed cards included; every value quoted, quotes doubled, and
 * guarded against formulas (guardCell).
 */
export function projectToCsv(bundle: ProjectBundle): string {
  const grid = buildGrid(bundle, true)
  const rows: string[][] = []
  for (const { milestone } of grid.releases) {
    for (const { workflow, activities } of grid.goals) {
      for (const activity of activities) {
        for (const f of grid.cells.get(cellKey(milestone.id, activity.id)) ?? []) {
          rows.push(
            [
              milestone.title,
              workflow.title,
              activity.title,
              f.title,
              f.description,
              f.status,
              f.color,
              f.annotations,
              String(f.estimate),
            ].map(guardCell),
          )
        }
      }
    }
  }
  return stringify(rows, {
    header: true,
    columns: [...CSV_COLUMNS],
    quoted: true,
    quoted_empty: true,
    record_delimiter: '\r\n',
  })
}
