/**
 * A big map's cell groups far from where the board opens wait to be laid out until the page is
 * live (ui/far-groups.tsx, ADR 39). These are its rules; the page's first script runs them as
 * they are written here (their source is put in it), so each one stands alone: no imports, no
 * other function of this file.
 */

export type NearCounts = { rows: number; goals: number }

/** How much of the board's visible box counts as near: the box itself (the rest comes right after, once the page is live). */
export const NEAR_REACH = 1
/** Releases and goals revealed per idle moment once the page is live. */
export const REVEAL_STEP = 2

/**
 * How many releases (from the top) and goals (from the left) lie within `reach` boxes of the
 * board's top-left corner. Row heights are under-estimates (app.css's least header and cell
 * heights), so a row that might be on screen always counts.
 */
export function nearCounts(
  goalLefts: readonly number[],
  rowHeights: readonly number[],
  box: { width: number; height: number },
  reach: number,
): NearCounts {
  let goals = 0
  while (goals < goalLefts.length && goalLefts[goals] < box.width * reach) goals++
  let rows = 0
  let top = 0
  while (rows < rowHeights.length && top < box.height * reach) top += rowHeights[rows++]
  return { rows: Math.max(rows, 1), goals: Math.max(goals, 1) }
}

/**
 * The screen-only rule that keeps the groups past `rows` releases or past `goals` goals from
 * being laid out (their size stays: widths are set, heights estimated in app.css).
 */
export function farGroupsCss(rows: number, goals: number): string {
  return (
    '@media screen{' +
    `.release-list>.release:nth-child(n+${rows + 1}) .cell-group,` +
    `.release-cells>.cell-group:nth-child(n+${goals + 1})` +
    '{content-visibility:hidden}}'
  )
}
