import { DragDropContext, Draggable, Droppable, type DropResult } from '@hello-pangea/dnd'
import { memo, useMemo, useState } from 'react'
import { buildGrid, byRank, cellKey, type GoalColumn } from '~/domain/board-grid'
import { moveIndexFromVisible } from '~/domain/rank'
import type { Feature, Milestone } from '~/domain/board-types'
import { useBoard } from './board-context'
import { CardTile } from './card-tile'
import { NewCardModal, type NewCardTarget } from './new-card-modal'
import { PersonaAvatar } from './persona-avatar'

/** The story map: goals across, activities under them, releases down, features in the cells. */
export function StoryMap() {
  const board = useBoard()
  const { bundle, readOnly, showClosed, dispatch } = board
  const grid = useMemo(() => buildGrid(bundle, showClosed), [bundle, showClosed])
  const [adding, setAdding] = useState<NewCardTarget | null>(null)

  const onDragEnd = (result: DropResult) => {
    const { destination, draggableId: id, type } = result
    if (!destination || readOnly) return
    const shown = (card: { status: string }) => showClosed || card.status !== 'CLOSED'
    // The API's index counts hidden closed cards too (app/domain/rank.ts).
    const indexIn = <T extends { id: string; status: string }>(list: T[]) =>
      moveIndexFromVisible(list.filter((c) => c.id !== id), destination.index, shown)
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
        {adding ? <NewCardModal target={adding} onClose={() => setAdding(null)} /> : null}
      </div>
    )
  }

  const { hidden } = grid
  return (
    <div className="story-map-wrap">
      <DragDropContext onDragEnd={onDragEnd}>
        <div className="story-map" role="region" aria-label="Story map">
          <Droppable droppableId="goals" type="GOAL" direction="horizontal" isDropDisabled={readOnly}>
            {(drop) => (
              <div className="goal-row" ref={drop.innerRef} {...drop.droppableProps}>
                {grid.goals.map((goal, index) => (
                  <GoalColumnView key={goal.workflow.id} goal={goal} index={index} onAdd={setAdding} />
                ))}
                {drop.placeholder}
                {!readOnly ? (
                  <button type="button" className="add-button add-goal" onClick={() => setAdding({ kind: 'workflow' })}>
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
                  <Draggable key={milestone.id} draggableId={milestone.id} index={index} isDragDisabled={readOnly}>
                    {(drag, snapshot) => (
                      <section
                        className={`release ${snapshot.isDragging ? 'dragging' : ''}`}
                        ref={drag.innerRef}
                        {...drag.draggableProps}
                        aria-label={`Release ${milestone.title}`}
                      >
                        <ReleaseHeader milestone={milestone} size={size} count={count} handle={drag.dragHandleProps} />
                        <div className="release-cells">
                          {grid.goals.map((goal) => (
                            <div className="cell-group" key={goal.workflow.id} style={{ width: columnsWidth(goal) }}>
                              {goal.activities.length === 0 ? <div className="cell placeholder" /> : null}
                              {goal.activities.map((activity) => (
                                <Cell
                                  key={activity.id}
                                  milestone={milestone}
                                  activityId={activity.id}
                                  activityTitle={activity.title}
                                  features={grid.cells.get(cellKey(milestone.id, activity.id))}
                                  onAdd={setAdding}
                                />
                              ))}
                            </div>
                          ))}
                        </div>
                      </section>
                    )}
                  </Draggable>
                ))}
                {drop.placeholder}
              </div>
            )}
          </Droppable>
          {!readOnly ? (
            <button type="button" className="add-button add-release" onClick={() => setAdding({ kind: 'milestone' })}>
              + Add release
            </button>
          ) : null}
        </div>
      </DragDropContext>
      {hidden.releases + hidden.goals + hidden.activities > 0 ? (
        <p className="closed-note">{`Closed cards not shown: ${hidden.releases} releases / ${hidden.goals} goals / ${hidden.activities} activities`}</p>
      ) : null}
      {adding ? <NewCardModal target={adding} onClose={() => setAdding(null)} /> : null}
    </div>
  )
}

const COLUMN = 184
const columnsWidth = (goal: GoalColumn) => Math.max(1, goal.activities.length) * COLUMN

function GoalColumnView({ goal, index, onAdd }: { goal: GoalColumn; index: number; onAdd: (t: NewCardTarget) => void }) {
  const { readOnly, basePath, search, bundle, openPersonas } = useBoard()
  const { workflow, activities, size } = goal
  const personas = bundle.workflowPersonas
    .filter((wp) => wp.workflowId === workflow.id)
    .map((wp) => bundle.personas.find((p) => p.id === wp.personaId))
    .filter((p) => p !== undefined)
  return (
    <Draggable draggableId={workflow.id} index={index} isDragDisabled={readOnly}>
      {(drag, snapshot) => (
        <div className={`goal-column ${snapshot.isDragging ? 'dragging' : ''}`} ref={drag.innerRef} {...drag.draggableProps} style={{ ...drag.draggableProps.style, width: columnsWidth(goal) }}>
          <div className="goal-head">
            <div className="goal-tools">
            <div className="goal-personas">
              {personas.map((p) => (
                <button key={p.id} type="button" className="persona-chip" onClick={() => openPersonas({ page: 'persona', personaId: p.id })} title={`${p.name}${p.role ? ` (${p.role})` : ''}`}>
                  <PersonaAvatar avatar={p.avatar} size={22} />
                  <span className="sr-only">{`Persona ${p.name}`}</span>
                </button>
              ))}
              {!readOnly ? (
                <button type="button" className="persona-chip add" onClick={() => openPersonas({ page: 'create', workflowId: workflow.id })} aria-label={`Add persona to goal ${workflow.title}`}>
                  +
                </button>
              ) : null}
            </div>
            {!readOnly && activities.length > 0 ? (
              <button type="button" className="add-button small-add" onClick={() => onAdd({ kind: 'subworkflow', workflowId: workflow.id })} aria-label={`Add activity to goal ${workflow.title}`}>
                + Add activity
              </button>
            ) : null}
            </div>
            <div {...drag.dragHandleProps} className="goal-handle" aria-label={`Drag goal ${workflow.title}`}>
              <CardTile to={`${basePath}/w/${workflow.id}${search}`} title={workflow.title} color={workflow.color} status={workflow.status} annotations={workflow.annotations} size={size} kindLabel="Goal" className="goal-card" />
            </div>
          </div>
          <Droppable droppableId={`activities:${workflow.id}`} type="ACTIVITY" direction="horizontal" isDropDisabled={readOnly}>
            {(drop) => (
              <div className="activity-row" ref={drop.innerRef} {...drop.droppableProps}>
                {activities.map((activity, i) => (
                  <Draggable key={activity.id} draggableId={activity.id} index={i} isDragDisabled={readOnly}>
                    {(d, s) => (
                      <div className="activity-slot">
                        <ActivityTile id={activity.id} provided={d} dragging={s.isDragging} />
                      </div>
                    )}
                  </Draggable>
                ))}
                {drop.placeholder}
                {!readOnly && activities.length === 0 ? (
                  <button type="button" className="add-button add-activity" onClick={() => onAdd({ kind: 'subworkflow', workflowId: workflow.id })} aria-label={`Add activity to goal ${workflow.title}`}>
                    + Add activity
                  </button>
                ) : null}
              </div>
            )}
          </Droppable>
        </div>
      )}
    </Draggable>
  )
}

function ActivityTile({ id, provided, dragging }: { id: string; provided: Parameters<typeof CardTile>[0]['provided']; dragging: boolean }) {
  const { bundle, basePath, search } = useBoard()
  const activity = bundle.subWorkflows.find((s) => s.id === id)
  const size = useMemo(() => bundle.features.filter((f) => f.subWorkflowId === id).reduce((n, f) => n + f.estimate, 0), [bundle.features, id])
  if (!activity) return null
  return <CardTile to={`${basePath}/sw/${id}${search}`} title={activity.title} color={activity.color} status={activity.status} annotations={activity.annotations} size={size} kindLabel="Activity" className="activity-card" provided={provided} dragging={dragging} />
}

function ReleaseHeader({ milestone, size, count, handle }: { milestone: Milestone; size: number; count: number; handle: unknown }) {
  const { basePath, search } = useBoard()
  return (
    <div className="release-header" {...(handle as object)} aria-label={`Drag release ${milestone.title}`}>
      <CardTile to={`${basePath}/m/${milestone.id}${search}`} title={milestone.title} color={milestone.color} status={milestone.status} annotations={milestone.annotations} kindLabel="Release" className="release-card" />
      <span className="release-stats">
        <span title="Total size">{`Size ${size}`}</span> · <span>{`${count} features`}</span>
      </span>
    </div>
  )
}

type CellProps = {
  milestone: Milestone
  activityId: string
  activityTitle: string
  features: Feature[] | undefined
  onAdd: (t: NewCardTarget) => void
}

const Cell = memo(function Cell({ milestone, activityId, activityTitle, features, onAdd }: CellProps) {
  const { readOnly, showClosed, basePath, search } = useBoard()
  const shown = (features ?? []).filter((f) => showClosed || f.status !== 'CLOSED')
  return (
    <Droppable droppableId={`cell:${milestone.id}:${activityId}`} type="FEATURE" isDropDisabled={readOnly}>
      {(drop, snapshot) => (
        <div className={`cell ${snapshot.isDraggingOver ? 'over' : ''}`} ref={drop.innerRef} {...drop.droppableProps}>
          {shown.map((f, i) => (
            <Draggable key={f.id} draggableId={f.id} index={i} isDragDisabled={readOnly}>
              {(d, s) => (
                <CardTile to={`${basePath}/f/${f.id}${search}`} title={f.title} color={f.color} status={f.status} annotations={f.annotations} size={f.estimate} kindLabel="Feature" className="feature-card" provided={d} dragging={s.isDragging} />
              )}
            </Draggable>
          ))}
          {drop.placeholder}
          {!readOnly ? (
            <button type="button" className="add-feature" onClick={() => onAdd({ kind: 'feature', milestoneId: milestone.id, subWorkflowId: activityId })} aria-label={`Add feature to ${milestone.title} / ${activityTitle}`}>
              +
            </button>
          ) : null}
        </div>
      )}
    </Droppable>
  )
})
