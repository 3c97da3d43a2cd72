import { stringify } from 'csv-stringify/sync'
import { buildGrid, cellKey } from '~/features/board'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { CSV_COLUMNS, CSV_TAGS_COLUMN, guardCell } from './csv-cells'

export { CSV_COLUMNS, CSV_FILENAME, guardCell, unguardCell } from './csv-cells'

/**
 * SPEC §9 export: one row per feature in board order (release, then goal, then activity, then
 * the card's place in its cell), closed cards included; every value quoted, quotes doubled, and
 * guarded against formulas (guardCell).
 */
export function projectToCsv(bundle: ProjectBundle): string {
  const grid = buildGrid(bundle, true)
  // A tenth column only for maps with tags (CONTRACT §12); maps without keep SPEC's nine.
  const tags = bundle.tags ?? []
  const tagName = new Map(tags.map((t) => [t.id, t.name]))
  const tagCell = (tagIds: string[] = []) => tagIds.flatMap((id) => tagName.get(id) ?? []).join(', ')
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
              ...(tags.length > 0 ? [tagCell(f.tagIds)] : []),
            ].map(guardCell),
          )
        }
      }
    }
  }
  return stringify(rows, {
    header: true,
    columns: tags.length > 0 ? [...CSV_COLUMNS, CSV_TAGS_COLUMN] : [...CSV_COLUMNS],
    quoted: true,
    quoted_empty: true,
    record_delimiter: '\r\n',
  })
}
