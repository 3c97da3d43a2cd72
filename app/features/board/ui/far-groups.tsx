import { useEffect, useRef } from 'react'
import { cellKey, type BoardGrid } from '~/features/board/board-grid'
import { farGroupsCss, NEAR_REACH, nearCounts, REVEAL_STEP } from '~/features/board/far-groups'
import { mostCardsInACell } from '~/features/board/overview'
import { useNonce } from '~/http/nonce'
import { useFolds } from './overview-parts'

const FAR_GROUPS_ID = 'far-groups'

/**
 * Runs in the page while it is read, between the goals and the releases: measures the board's
 * box and the goals' places, estimates the rows' heights, and hides the groups past the box
 * (times `reach`). Its source goes into the page, so it uses its arguments only.
 */
function hideFarGroups(
  script: HTMLScriptElement,
  rowCards: number[],
  reach: number,
  near: typeof nearCounts,
  css: typeof farGroupsCss,
) {
  try {
    const style = script.previousElementSibling as HTMLStyleElement
    const map = script.parentElement as HTMLElement
    const box = map.parentElement as HTMLElement
    const vars = getComputedStyle(box)
    const [rowAdd, cellLeast, cardStep, cellAdd] = [
      '--row-add',
      '--cell-least',
      '--card-step',
      '--cell-add',
    ].map((name) => parseFloat(vars.getPropertyValue(name)) || 0)
    const heights = rowCards.map((n) => rowAdd + (n < 0 ? 0 : Math.max(cellLeast, n * cardStep + cellAdd)))
    const mapLeft = map.getBoundingClientRect().left
    const lefts = Array.from(
      map.querySelectorAll('.goal-row > .goal-column'),
      (goal) => goal.getBoundingClientRect().left - mapLeft,
    )
    // The goals' row stays at the top of the box (sticky): the releases have the rest of it.
    const goalRow = map.querySelector('.goal-row') as HTMLElement
    const height = Math.max(window.innerHeight - box.getBoundingClientRect().top, 288) - goalRow.offsetHeight
    const counts = near(lefts, heights, { width: box.clientWidth, height }, reach)
    style.dataset.rows = String(counts.rows)
    style.dataset.goals = String(counts.goals)
    style.textContent = css(counts.rows, counts.goals)
  } catch {
    // Nothing hidden: the board draws as it would without this script.
  }
}

/**
 * On a big map, the browser lays out the cell groups near where the board opens and leaves the
 * rest until the page is live: at 25 % its own margin for `content-visibility: auto` held about
 * three quarters of a 4,000-card map, and that layout made 25 % load slower than 100 % (issue 47).
 * Server-rendered only: a board drawn in the browser shows everything (no script runs there).
 * Without JavaScript the script does not run and nothing is hidden.
 */
export function FarGroupsScript({ grid, includeClosed }: { grid: BoardGrid; includeClosed: boolean }) {
  const nonce = useNonce()
  const folds = useFolds()
  let code = ''
  if (typeof document === 'undefined') {
    const rowCards = grid.releases.map(({ milestone }) =>
      folds.releases.has(milestone.id)
        ? -1
        : mostCardsInACell(
            grid.goals.flatMap((goal) =>
              goal.activities.map((activity) => grid.cells.get(cellKey(milestone.id, activity.id))),
            ),
            includeClosed,
          ),
    )
    const args = [JSON.stringify(rowCards), NEAR_REACH, nearCounts, farGroupsCss].join(',')
    code = `(${hideFarGroups.toString()})(document.currentScript,${args})`
  }
  return (
    <>
      <style id={FAR_GROUPS_ID} dangerouslySetInnerHTML={{ __html: '' }} suppressHydrationWarning />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} suppressHydrationWarning />
    </>
  )
}

/**
 * Once the board is live, the hidden groups come back a few releases and goals per idle moment;
 * all at once when the board scrolls, a key is pressed or the zoom changes (a far card is about
 * to be wanted).
 */
export function useFarGroupsReveal(
  box: HTMLElement | null,
  counts: { releases: number; goals: number },
  zoom: number,
) {
  const total = useRef(counts)
  total.current = counts
  useEffect(() => {
    const style = document.getElementById(FAR_GROUPS_ID)
    const scroller = box
    if (!style?.textContent || !scroller) return
    let rows = Number(style.dataset.rows) || 0
    let goals = Number(style.dataset.goals) || 0
    // requestIdleCallback is missing in Safari.
    const later = (callback: () => void) =>
      window.requestIdleCallback
        ? window.requestIdleCallback(callback, { timeout: 500 })
        : window.setTimeout(callback, 16)
    const cancel = (handle: number) =>
      window.cancelIdleCallback ? window.cancelIdleCallback(handle) : window.clearTimeout(handle)
    let pending = 0
    const revealAll = () => {
      cancel(pending)
      style.textContent = ''
      scroller.removeEventListener('scroll', revealAll)
      document.removeEventListener('keydown', revealAll, true)
    }
    const step = () => {
      rows += REVEAL_STEP
      goals += REVEAL_STEP
      if (rows >= total.current.releases && goals >= total.current.goals) return revealAll()
      style.textContent = farGroupsCss(rows, goals)
      pending = later(step)
    }
    pending = later(step)
    scroller.addEventListener('scroll', revealAll, { passive: true })
    document.addEventListener('keydown', revealAll, true)
    return revealAll
  }, [box, zoom])
}
