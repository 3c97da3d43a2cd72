import { DragDropContext, Droppable } from '@hello-pangea/dnd'
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
} from 'react'
import { navLayout, stopAfterRemoval } from '~/features/board/board-nav'
import type { Persona, WorkflowPersona } from '~/features/map/bundle-types'
import { applyCommand, type EditMeta } from '~/features/board/board-reducer'
import type { FeatureMove } from '~/features/board/drag-moves'
import { useBrowserLayoutEffect } from '~/ui/use-browser-layout-effect'
import { useBoard } from './board-context'
import { loadNewCardModal, loadShortcutsDialog } from './board-parts'
import { ReleaseRow } from './board-rows'
import { CardFilterProvider, createCardFilterStore } from './card-filter-store'
import { FarGroupsScript, useFarGroupsReveal } from './far-groups'
import { FindBar, SEARCH_FIELD_ID } from './find-bar'
import { GoalColumnView } from './goal-column'
import { createNearWatcher, LAZY_DRAG_FEATURES, NearViewportProvider } from './near-viewport'
import type { NewCardTarget } from './new-card-modal'
import { useBoardDrag } from './use-board-drag'
import { useBoardKeyboard } from './use-board-keyboard'
import { useBoardView } from './use-board-view'
import {
  foldedGoalLine,
  foldedReleaseLine,
  foldNote,
  foldPlaceOf,
  mapProgress,
  mapWidthAt100,
  releaseSummary,
} from '~/features/board/overview'
import { FoldsContext, ProgressContext, TinyTilesContext, ZoomControls, zoomStyle } from './overview-parts'
import { useBoardBox, useZoom } from './use-zoom'

// The modal (and the validation library it uses) loads when a card is first added, not with the board.
const NewCardModal = lazy(() => loadNewCardModal().then((m) => ({ default: m.NewCardModal })))
const ShortcutsDialog = lazy(() => loadShortcutsDialog().then((m) => ({ default: m.ShortcutsDialog })))

const NO_PERSONAS: Persona[] = []
/** The board's element id: the page's skip link goes there (app/ui/skip-link.tsx). */
export const BOARD_ID = 'board'
/** The carried card's place is shown only; nobody's edit. */
const CARRY_META: EditMeta = { memberId: '', name: '', now: '' }
// Layout effects do nothing on the server (and React says so); the store starts right there anyway.

function personasByGoal(links: WorkflowPersona[], personas: Persona[]) {
  const byId = new Map(personas.map((p) => [p.id, p]))
  const result = new Map<string, Persona[]>()
  for (const link of links) {
    const persona = byId.get(link.personaId)
    if (!persona) continue
    const list = result.get(link.workflowId)
    if (list) list.push(persona)
    else result.set(link.workflowId, [persona])
  }
  return result
}

/**
 * The story map: goals across, activities under them, releases down, features in the cells;
 * above it the search and filters, which hide feature cards without unmounting them.
 */
export function StoryMap() {
  const {
    bundle,
    readOnly,
    showClosed,
    dispatch,
    basePath,
    linkSearch,
    openPersonas,
    filter,
    setFilter,
    live,
    members,
    cardExits,
    mapView,
  } = useBoard()
  // A feature a keyboard drag has carried on to another release's cell, until the drop saves it.
  const [carry, setCarry] = useState<FeatureMove | null>(null)
  const shownBundle = useMemo(
    () => (carry ? applyCommand(bundle, carry, CARRY_META) : bundle),
    [bundle, carry],
  )
  const { grid, view, print } = useBoardView(shownBundle, showClosed, filter, members)
  // Feature tiles read the search and filters from this store; it is brought up to date before
  // the browser paints, so the count line and the cards change in the same frame.
  const [cardFilter] = useState(() => createCardFilterStore(view.cards))
  const [root, setRoot] = useState<HTMLElement | null>(null)
  useBrowserLayoutEffect(() => cardFilter.applyAll(root), [cardFilter, root])
  useBrowserLayoutEffect(() => cardFilter.update(view.cards, root), [cardFilter, view.cards, root])
  const goalPersonas = useMemo(
    () => personasByGoal(bundle.workflowPersonas, bundle.personas),
    [bundle.workflowPersonas, bundle.personas],
  )
  const tagsById = useMemo(() => new Map((bundle.tags ?? []).map((t) => [t.id, t])), [bundle.tags])
  const [adding, setAdding] = useState<NewCardTarget | null>(null)
  const [showingShortcuts, setShowingShortcuts] = useState(false)
  const [nearWatcher] = useState(createNearWatcher)
  // Progress counts every feature, whatever the search, the filters and Show closed leave out.
  const progress = useMemo(
    () => mapProgress({ features: bundle.features, subWorkflows: bundle.subWorkflows }),
    [bundle.features, bundle.subWorkflows],
  )
  const { goalsFolded, releasesFolded, foldGoal, foldRelease, view: kept, setZoom } = mapView
  const folds = useMemo(
    () => ({ goals: goalsFolded, releases: releasesFolded, foldGoal, foldRelease }),
    [goalsFolded, releasesFolded, foldGoal, foldRelease],
  )
  const [box, setBox] = useState<HTMLElement | null>(null)
  const boxRef = useCallback(
    (element: HTMLElement | null) => {
      nearWatcher.setRoot(element)
      setBox(element)
    },
    [nearWatcher],
  )
  const drag = useBoardDrag({
    bundle: shownBundle,
    grid,
    showClosed,
    includeClosed: view.includeClosed,
    readOnly,
    dispatch,
    live,
    nearWatcher,
    foldedReleases: releasesFolded,
    handleOf: (id) => root?.querySelector<HTMLElement>(`a.card-tile[href*="/f/${CSS.escape(id)}"]`) ?? null,
    setCarry,
  })
  const closeShortcuts = useCallback(() => setShowingShortcuts(false), [])
  const { fit } = useZoom({
    zoom: kept.zoom,
    setZoom,
    widthAt100: () =>
      mapWidthAt100(
        grid.goals.map((g) => ({ activities: g.activities.length, folded: goalsFolded.has(g.workflow.id) })),
      ),
    box,
    dragging: () => drag.dragging.current,
  })
  useBoardBox(box)
  useFarGroupsReveal(box, { releases: grid.releases.length, goals: grid.goals.length }, kept.zoom)

  const onNew = (navId: string, item: HTMLElement) => {
    if (readOnly) return
    if (item instanceof HTMLButtonElement) return item.click()
    const feature = bundle.features.find((f) => f.id === navId)
    if (feature)
      return setAdding({
        kind: 'feature',
        milestoneId: feature.milestoneId,
        subWorkflowId: feature.subWorkflowId,
      })
    const activity = bundle.subWorkflows.find((s) => s.id === navId)
    if (activity) return setAdding({ kind: 'subworkflow', workflowId: activity.workflowId })
    if (bundle.workflows.some((w) => w.id === navId)) return setAdding({ kind: 'workflow' })
    if (bundle.milestones.some((m) => m.id === navId)) return setAdding({ kind: 'milestone' })
  }
  // `c` on a goal, activity or release card (CONTRACT §15): the board stays one Tab stop.
  const [foldSaid, setFoldSaid] = useState('')
  const onFold = (navId: string) => {
    const place = foldPlaceOf(navId, bundle)
    if (!place) return null
    if (place.kind === 'goal') {
      const goal = grid.goals.find((g) => g.workflow.id === place.id)
      if (!goal) return null
      const folded = !goalsFolded.has(place.id)
      foldGoal(place.id, folded)
      setFoldSaid(foldNote(place, goal.workflow.title, folded, foldedGoalLine(goal.activities.length)))
    } else {
      const release = grid.releases.find((r) => r.milestone.id === place.id)
      if (!release) return null
      const folded = !releasesFolded.has(place.id)
      foldRelease(place.id, folded)
      const line = foldedReleaseLine(releaseSummary(progress, place.id))
      setFoldSaid(foldNote(place, release.milestone.title, folded, line))
    }
    return place.id === navId ? null : place.id
  }
  const layout = () =>
    navLayout(
      grid,
      (f) => (view.includeClosed || f.status !== 'CLOSED') && !view.cards.get(f.id)?.hidden,
      !readOnly,
      folds,
      // At 25 % a cell with cards has no `+` (board-rows.tsx).
      kept.zoom === 25 ? (f) => view.includeClosed || f.status !== 'CLOSED' : undefined,
    )
  const { focusWhenShown } = useBoardKeyboard({
    root,
    layout,
    onNew,
    onFold,
    onShortcuts: () => setShowingShortcuts(true),
    onSearch: () => document.getElementById(SEARCH_FIELD_ID)?.focus(),
    dragging: () => drag.dragging.current,
  })

  // A card its dialog deletes, or closes while closed cards are hidden: the focus goes to one beside it.
  const shownNow = useRef({ layout, includeClosed: view.includeClosed })
  shownNow.current = { layout, includeClosed: view.includeClosed }
  useEffect(
    () =>
      cardExits?.register((id, how) => {
        if (how === 'close' && shownNow.current.includeClosed) return
        const next = stopAfterRemoval(shownNow.current.layout(), id)
        if (next) focusWhenShown(next)
      }),
    [cardExits, focusWhenShown],
  )

  const dialogs = (
    <>
      {adding && !readOnly ? (
        <Suspense fallback={null}>
          <NewCardModal target={adding} onCreated={focusWhenShown} onClose={() => setAdding(null)} />
        </Suspense>
      ) : null}
      {showingShortcuts ? (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={closeShortcuts} />
        </Suspense>
      ) : null}
    </>
  )
  const empty = bundle.workflows.length === 0 && bundle.milestones.length === 0
  // An empty board's one action takes the focus when nothing has it: a new project's board
  // (the project list's dialog that had it is gone), or a board whose last card was deleted.
  const addFirstGoal = useRef<HTMLButtonElement>(null)
  const emptyNoteId = useId()
  useEffect(() => {
    const active = document.activeElement
    if (empty && (!active || active === document.body)) addFirstGoal.current?.focus()
  }, [empty])
  // Arriving at `…#board` (a project just made from a template) with nothing focused: the board's
  // first card takes the focus, once it is drawn.
  useEffect(() => {
    if (window.location.hash !== `#${BOARD_ID}`) return
    let frame = 0
    let tries = 0
    const focusFirstCard = () => {
      const active = document.activeElement
      if (active && active !== document.body) return
      const first = document.getElementById(BOARD_ID)?.querySelector<HTMLElement>('[tabindex="0"]')
      if (first) first.focus()
      else if (++tries < 60) frame = requestAnimationFrame(focusFirstCard)
    }
    focusFirstCard()
    return () => cancelAnimationFrame(frame)
  }, [])
  if (empty) {
    return (
      <div id={BOARD_ID} className="board-empty">
        {readOnly ? (
          <p>This story map is empty.</p>
        ) : (
          <>
            <p id={emptyNoteId}>This board is empty, please start by adding a user goal</p>
            <button
              ref={addFirstGoal}
              type="button"
              className="button primary"
              aria-describedby={emptyNoteId}
              onClick={() => setAdding({ kind: 'workflow' })}
            >
              Add goal
            </button>
          </>
        )}
        {dialogs}
      </div>
    )
  }

  const { hidden } = grid
  const links = {
    readOnly,
    basePath,
    search: linkSearch,
    lazyDrag: bundle.features.length > LAZY_DRAG_FEATURES,
    tagsById,
  }
  return (
    <>
      <div className="board-bar">
        <ZoomControls zoom={kept.zoom} onZoom={setZoom} onFit={fit} />
        <p className="sr-only" role="status">
          {foldSaid}
        </p>
        <FindBar
          filter={filter}
          setFilter={setFilter}
          shown={view.shown}
          total={view.total}
          closedLeftOut={view.closedLeftOut}
          personas={bundle.personas}
        />
      </div>
      <div className={`story-map-wrap zoom-${kept.zoom}`} style={zoomStyle(kept.zoom)} ref={boxRef}>
        <FoldsContext.Provider value={folds}>
          <ProgressContext.Provider value={progress}>
            <TinyTilesContext.Provider value={kept.zoom === 25}>
              <CardFilterProvider store={cardFilter}>
                <NearViewportProvider value={nearWatcher}>
                  <DragDropContext {...drag.context}>
                    <div
                      id={BOARD_ID}
                      className="story-map"
                      role="region"
                      aria-label="Story map"
                      ref={setRoot}
                      style={{ '--releases': grid.releases.length } as CSSProperties}
                    >
                      <Droppable
                        droppableId="goals"
                        type="GOAL"
                        direction="horizontal"
                        isDropDisabled={readOnly}
                      >
                        {(drop) => (
                          <div className="goal-row" ref={drop.innerRef} {...drop.droppableProps}>
                            {grid.goals.map((goal, index) => (
                              <GoalColumnView
                                key={goal.workflow.id}
                                goal={goal}
                                index={index}
                                personas={goalPersonas.get(goal.workflow.id) ?? NO_PERSONAS}
                                onAdd={setAdding}
                                openPersonas={openPersonas}
                                filtered={view.filtering ? view.goals.get(goal.workflow.id) : undefined}
                                print={print}
                                {...links}
                              />
                            ))}
                            {drop.placeholder}
                            {!readOnly ? (
                              <button
                                type="button"
                                className="add-button add-goal"
                                onClick={() => setAdding({ kind: 'workflow' })}
                              >
                                <span aria-hidden="true">+ </span>Add goal
                              </button>
                            ) : null}
                          </div>
                        )}
                      </Droppable>
                      {links.lazyDrag ? (
                        <FarGroupsScript grid={grid} includeClosed={view.includeClosed} />
                      ) : null}
                      <Droppable droppableId="releases" type="RELEASE" isDropDisabled={readOnly}>
                        {(drop) => (
                          <div className="release-list" ref={drop.innerRef} {...drop.droppableProps}>
                            {grid.releases.map(({ milestone, size, count, closed }, index) => {
                              const filtered = view.filtering ? view.releases.get(milestone.id) : undefined
                              return (
                                <ReleaseRow
                                  key={milestone.id}
                                  milestone={milestone}
                                  size={size}
                                  count={count}
                                  closedLeftOut={closed}
                                  filteredSize={filtered?.size ?? null}
                                  filteredCount={filtered?.count ?? null}
                                  index={index}
                                  goals={grid.goals}
                                  cells={grid.cells}
                                  includeClosed={view.includeClosed}
                                  onAdd={setAdding}
                                  print={print}
                                  {...links}
                                />
                              )
                            })}
                            {drop.placeholder}
                          </div>
                        )}
                      </Droppable>
                      {!readOnly ? (
                        <button
                          type="button"
                          className="add-button add-release"
                          onClick={() => setAdding({ kind: 'milestone' })}
                        >
                          <span aria-hidden="true">+ </span>Add release
                        </button>
                      ) : null}
                    </div>
                  </DragDropContext>
                </NearViewportProvider>
              </CardFilterProvider>
            </TinyTilesContext.Provider>
          </ProgressContext.Provider>
        </FoldsContext.Provider>
        {hidden.releases + hidden.goals + hidden.activities > 0 ? (
          <p className="closed-note">{`Closed cards not shown: ${hidden.releases} releases / ${hidden.goals} goals / ${hidden.activities} activities`}</p>
        ) : null}
      </div>
      {dialogs}
    </>
  )
}
