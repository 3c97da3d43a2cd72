import { useEffect, useMemo, useRef, useState } from 'react'
import type { BoardFilter } from '~/features/board/board-filter'
import { buildGrid, type BoardGrid } from '~/features/board/board-grid'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { deriveBoardView, type BoardView } from '~/features/board/board-view'
import {
  createSearchTextIndex,
  featureMatcher,
  memberNameMap,
  type MemberNames,
} from '~/features/board/feature-match'
import { printLayout } from '~/features/board/print-layout'
import { searchWords } from '~/features/board/text-search'
import type { BoardMember } from './board-context'

/**
 * The board's grid and how the search and filters show it. Each step reuses the unchanged parts
 * of the one before (buildGrid, deriveBoardView), so memoised rows and cells skip rendering.
 * The search text of every feature is normalized once per feature object, and only while a
 * search is typed; comments' mentions are searched by the members' current names.
 */
export function useBoardView(
  bundle: ProjectBundle,
  showClosed: boolean,
  filter: BoardFilter,
  members?: readonly BoardMember[],
) {
  const lastGrid = useRef<BoardGrid | undefined>(undefined)
  // The sizes and counts count closed features when the board shows them (board-grid.ts).
  const countClosed = showClosed || filter.status === 'closed'
  const grid = useMemo(
    () => (lastGrid.current = buildGrid(bundle, showClosed, lastGrid.current, countClosed)),
    [bundle, showClosed, countClosed],
  )
  const [searchTexts] = useState(createSearchTextIndex)
  const lastNames = useRef<MemberNames | undefined>(undefined)
  const names = useMemo(() => (lastNames.current = memberNameMap(members, lastNames.current)), [members])
  // Normalizes every feature's text while the browser is idle, so the first key typed is as quick as the rest.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200))
    const cancel = window.cancelIdleCallback ?? window.clearTimeout
    const handle = idle(() => searchTexts(bundle.features, bundle.featureComments, names))
    return () => cancel(handle)
  }, [searchTexts, bundle.features, bundle.featureComments, names])
  const words = useMemo(() => searchWords(filter.q), [filter.q])
  const searching = words.length > 0
  const texts = useMemo(
    () => (searching ? searchTexts(bundle.features, bundle.featureComments, names) : null),
    [searching, searchTexts, bundle.features, bundle.featureComments, names],
  )
  const matcher = useMemo(
    () => featureMatcher(filter, bundle, (f) => texts?.get(f.id) ?? ''),
    // The matcher reads only these parts of the bundle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [filter, texts, bundle.workflowPersonas, bundle.subWorkflows],
  )
  const lastView = useRef<BoardView | undefined>(undefined)
  const view = useMemo(
    () =>
      (lastView.current = deriveBoardView(
        grid,
        { showClosed, matcher, words, closedWanted: filter.status === 'closed' },
        lastView.current,
      )),
    [grid, showClosed, matcher, words, filter.status],
  )
  const goals = grid.goals
  const print = useMemo(
    () => printLayout(goals.map((g) => ({ id: g.workflow.id, activityIds: g.activities.map((a) => a.id) }))),
    [goals],
  )
  return { grid, view, print }
}
