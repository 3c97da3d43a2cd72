/**
 * Where each goal and activity column goes on the printed map. A map is wider than a page, so
 * print lays it out in bands of at most `perBand` columns, one under the other: whole goals are
 * packed into a band while they fit; a goal wider than a band is cut into band-wide pieces.
 * `column` counts from 0 within the band; a goal without activities takes one column.
 */
export type PrintPlace = { band: number; column: number }
export type GoalPrintPlace = PrintPlace & { span: number }
export type PrintLayout = {
  bands: number
  goals: Map<string, GoalPrintPlace>
  /** Activity id, or the goal id for a goal without activities (its empty column). */
  columns: Map<string, PrintPlace>
}

export const PRINT_COLUMNS_PER_BAND = 6

export function printLayout(
  goals: readonly { id: string; activityIds: readonly string[] }[],
  perBand = PRINT_COLUMNS_PER_BAND,
): PrintLayout {
  const result: PrintLayout = { bands: 0, goals: new Map(), columns: new Map() }
  let band = 0
  let used = 0
  for (const goal of goals) {
    const columnIds = goal.activityIds.length > 0 ? goal.activityIds : [goal.id]
    if (used > 0 && used + columnIds.length > perBand) {
      band += 1
      used = 0
    }
    result.goals.set(goal.id, { band, column: used, span: Math.min(columnIds.length, perBand - used) })
    for (const id of columnIds) {
      if (used === perBand) {
        band += 1
        used = 0
      }
      result.columns.set(id, { band, column: used })
      used += 1
    }
  }
  result.bands = goals.length === 0 ? 0 : band + 1
  return result
}

/** The `grid-column` value of a place: column 1 of the print grid holds the release names. */
export const printGridColumn = (place: PrintPlace, span = 1) =>
  span === 1 ? `${place.column + 2}` : `${place.column + 2} / span ${span}`

/** A CSS string literal holding `text`; every character that is not plainly safe is a CSS escape. */
export function cssString(text: string): string {
  const escaped = [...text]
    .map((char) =>
      /^[\p{L}\p{N} .,:;!?()&'_\-–—]$/u.test(char) ? char : `\\${char.codePointAt(0)!.toString(16)} `,
    )
    .join('')
  return `"${escaped}"`
}

/** The page rule of the printed map: landscape, the project title and the date at the top of every page. */
export function printPageRule(title: string, date: string | null): string {
  const font = 'font: 9pt system-ui, sans-serif; color: #333;'
  const dateBox = date ? ` @top-right { content: ${cssString(date)}; ${font} }` : ''
  return `@page { size: landscape; margin: 14mm 10mm 12mm; @top-left { content: ${cssString(title)}; ${font} }${dateBox} @bottom-right { content: "Page " counter(page) " of " counter(pages); ${font} } }`
}
