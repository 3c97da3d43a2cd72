import { DragDropContext, Droppable, type DropResult } from '@hello-pangea/dnd'
import { lazy, Suspense, useMemo, useRef, useState } from 'react'
import { buildGrid, byRank, cellKey, type BoardGrid } from '~/domain/board-grid'
import type { Persona, WorkflowPersona } from '~/domain/board-types'
import { moveIndexFromVisible } from '~/domain/rank'
import { useBoard } from './board-context'
import { GoalColumnView, ReleaseRow } from './board-rows'
import { createNearWatcher, NearViewportProvider } from './near-viewport'
import type { NewCardTarget } from './new-card-modal'

// The modal (and the validation library it uses) loads when a card is first added, not with the board.
const NewCardModal = lazy(() => import('./new-card-modal').then((m) => ({ default: m.NewCardModal })))

const NO_PERSONAS: Persona[] = []

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

/** The story map: goals across, activities under them, releases down, features in the cells. */
export function StoryMap() {
  const { bundle, readOnly, showClosed, dispatch, basePath, search, openPersonas, live } = useBoard()
  // Each grid reuses the unchanged parts of the one before (see buildGrid).
  const lastGrid = useRef<BoardGrid | undefined>(undefined)
  const grid = useMemo(
    () => (lastGrid.current = buildGrid(bundle, showClosed, lastGrid.current)),
    [bundle, showClosed],
  )
  const goalPersonas = useMemo(
    () => personasByGoal(bundle.workflowPersonas, bundle.personas),
    [bundle.workflowPersonas, bundle.personas],
  )
  const [adding, setAdding] = useState<NewCardTarget | null>(null)
  const [nearWatcher] = useState(createNearWatcher)

  // Everyone else's changes wait while a card is in the air, and land after the drop.
  const onDragStart = () => live?.setDragging(true)
  const onDragEnd = (result: DropResult) => {
    try {
      drop(result)
    } finally {
      live?.setDragging(false)
    }
  }
  const drop = (result: DropResult) => {
    const { destination, draggableId: id, type } = result
    if (!destination || readOnly) return
    const shown = (card: { status: string }) => showClosed || card.status !== 'CLOSED'
    // The API's index counts hidden closed cards too (app/domain/rank.ts).
    const indexIn = <T extends { id: string; status: string }>(list: T[]) =>
      moveIndexFromVisible(
        list.filter((c) => c.id !== id),
        destination.index,
        shown,
      )
    if (type === 'GOAL') {
      dispatch({ type: 'workflow.move', id, index: indexIn([...bundle.workflows].sort(byRank)) })
    } else if (type === 'RELEASE') {
      dispatch({ type: 'milestone.move', id, index: indexIn([...bundle.milestones].sort(byRank)) })
    } else if (type === 'ACTIVITY') {
      const toWorkflowId = destination.droppableId.slice('activities:'.length)
      const siblings = bundle.subWorkflows.filter((s) => s.workflowId === toWorkflowId).sort(byRank)
      dispatch({ type: 'subworkflow.move', id, toWorkflowId, index: indexIn(siblings) })
    } else if (type === 'FEATURE') {
      const [, toMilestoneId, toSubWorkflowId] = destination.droppableId.split(':')
      const siblings = grid.cells.get(cellKey(toMilestoneId, toSubWorkflowId)) ?? []
      dispatch({ type: 'feature.move', id, toMilestoneId, toSubWorkflowId, index: indexIn(siblings) })
    }
  }

  const modal = adding ? (
    <Suspense fallback={null}>
      <NewCardModal target={adding} onClose={() => setAdding(null)} />
    </Suspense>
  ) : null
  const empty = bundle.workflows.length === 0 && bundle.milestones.length === 0
  if (empty) {
    return (
      <div className="board-empty">
        {readOnly ? (
          <p>This story map is empty.</p>
        ) : (
          <>
            <p>This board is empty, please start by adding a user goal</p>
            <button type="button" className="button primary" onClick={() => setAdding({ kind: 'workflow' })}>
              Add goal
            </button>
          </>
        )}
        {modal}
      </div>
    )
  }

  const { hidden } = grid
  const view = { readOnly, basePath, search }
  return (
    <div className="story-map-wrap" ref={nearWatcher.setRoot}>
      <NearViewportProvider value={nearWatcher}>
        <DragDropContext onDragStart={onDragStart} onDragEnd={onDragEnd}>
          <div className="story-map" role="region" aria-label="Story map">
            <Droppable droppableId="goals" type="GOAL" direction="horizontal" isDropDisabled={readOnly}>
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
                      {...view}
                    />
                  ))}
                  {drop.placeholder}
                  {!readOnly ? (
                    <button
                      type="button"
                      className="add-button add-goal"
                      onClick={() => setAdding({ kind: 'workflow' })}
                    >
                      + Add goal
                    </button>
                  ) : null}
                </div>
              )}
            </Droppable>
            <Droppable droppableId="releases" type="RELEASE" isDropDisabled={readOnly}>
              {(drop) => (
                <div className="release-list" ref={drop.innerRef} {...drop.droppableProps}>
                  {grid.releases.map(({ milestone, size, count }, index) => (
                    <ReleaseRow
                      key={milestone.id}
                      milestone={milestone}
                      size={size}
                      count={count}
                      index={index}
                      goals={grid.goals}
                      cells={grid.cells}
                      showClosed={showClosed}
                      onAdd={setAdding}
                      {...view}
                    />
                  ))}
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
                + Add release
              </button>
            ) : null}
          </div>
        </DragDropContext>
      </NearViewportProvider>
      {hidden.releases + hidden.goals + hidden.activities > 0 ? (
        <p className="closed-note">{`Closed cards not shown: ${hidden.releases} releases / ${hidden.goals} goals / ${hidden.activities} activities`}</p>
      ) : null}
      {modal}
    </div>
  )
}
