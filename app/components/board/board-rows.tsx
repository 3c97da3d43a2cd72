import { Draggable, Droppable } from '@hello-pangea/dnd'
import { memo, useMemo, useRef } from 'react'
import { cellKey, type GoalColumn } from '~/domain/board-grid'
import type { Feature, Milestone, Persona } from '~/domain/board-types'
import type { PersonaView } from './board-context'
import { CardTile } from './card-tile'
import { useNearViewport } from './near-viewport'
import type { NewCardTarget } from './new-card-modal'
import { PersonaAvatar } from './persona-avatar'

/**
 * The rows and columns of the story map. Each part takes plain values and stable callbacks and
 * is memoised, so after an edit only the columns, rows and cells whose cards changed re-render
 * (see buildGrid's reuse of unchanged parts).
 */
export type BoardLinks = { readOnly: boolean; basePath: string; search: string }
type OnAdd = (target: NewCardTarget) => void

const COLUMN = 184
export const columnsWidth = (goal: GoalColumn) => Math.max(1, goal.activities.length) * COLUMN

type GoalProps = BoardLinks & {
  goal: GoalColumn
  index: number
  personas: Persona[]
  onAdd: OnAdd
  openPersonas: (view: PersonaView) => void
}

export const GoalColumnView = memo(function GoalColumnView(props: GoalProps) {
  const { goal, index, personas, onAdd, openPersonas, readOnly, basePath, search } = props
  const { workflow, activities, activitySizes, size } = goal
  return (
    <Draggable draggableId={workflow.id} index={index} isDragDisabled={readOnly}>
      {(drag, snapshot) => (
        <div
          className={`goal-column ${snapshot.isDragging ? 'dragging' : ''}`}
          ref={drag.innerRef}
          {...drag.draggableProps}
          style={{ ...drag.draggableProps.style, width: columnsWidth(goal) }}
        >
          <div className="goal-head">
            <div className="goal-tools">
              <div className="goal-personas">
                {personas.map((p) => (
                  <button
                    key={p.id}
                    type="button"
                    className="persona-chip"
                    onClick={() => openPersonas({ page: 'persona', personaId: p.id })}
                    title={`${p.name}${p.role ? ` (${p.role})` : ''}`}
                  >
                    <PersonaAvatar avatar={p.avatar} size={22} />
                    <span className="sr-only">{`Persona ${p.name}`}</span>
                  </button>
                ))}
                {!readOnly ? (
                  <button
                    type="button"
                    className="persona-chip add"
                    onClick={() => openPersonas({ page: 'create', workflowId: workflow.id })}
                    aria-label={`Add persona to goal ${workflow.title}`}
                  >
                    +
                  </button>
                ) : null}
              </div>
              {!readOnly && activities.length > 0 ? (
                <AddActivityButton className="small-add" goal={workflow} onAdd={onAdd} />
              ) : null}
            </div>
            <div {...drag.dragHandleProps} className="goal-handle" aria-label={`Drag goal ${workflow.title}`}>
              <CardTile
                to={`${basePath}/w/${workflow.id}${search}`}
                title={workflow.title}
                color={workflow.color}
                status={workflow.status}
                annotations={workflow.annotations}
                size={size}
                kindLabel="Goal"
                className="goal-card"
              />
            </div>
          </div>
          <Droppable
            droppableId={`activities:${workflow.id}`}
            type="ACTIVITY"
            direction="horizontal"
            isDropDisabled={readOnly}
          >
            {(drop) => (
              <div className="activity-row" ref={drop.innerRef} {...drop.droppableProps}>
                {activities.map((activity, i) => (
                  <Draggable key={activity.id} draggableId={activity.id} index={i} isDragDisabled={readOnly}>
                    {(d, s) => (
                      <div className="activity-slot">
                        <CardTile
                          to={`${basePath}/sw/${activity.id}${search}`}
                          title={activity.title}
                          color={activity.color}
                          status={activity.status}
                          annotations={activity.annotations}
                          size={activitySizes[i]}
                          kindLabel="Activity"
                          className="activity-card"
                          provided={d}
                          dragging={s.isDragging}
                        />
                      </div>
                    )}
                  </Draggable>
                ))}
                {drop.placeholder}
                {!readOnly && activities.length === 0 ? (
                  <AddActivityButton className="add-activity" goal={workflow} onAdd={onAdd} />
                ) : null}
              </div>
            )}
          </Droppable>
        </div>
      )}
    </Draggable>
  )
})

type ReleaseProps = BoardLinks & {
  milestone: Milestone
  size: number
  count: number
  index: number
  goals: GoalColumn[]
  cells: Map<string, Feature[]>
  showClosed: boolean
  onAdd: OnAdd
}

/**
 * Equal when nothing this row shows changed: its own props, and the feature list of each of its
 * cells (`cells` is a new Map after every edit, but buildGrid keeps unchanged lists). A drop
 * then re-renders the one or two rows it touched, not all of them.
 */
function AddActivityButton({
  goal,
  onAdd,
  className,
}: {
  goal: { id: string; title: string }
  onAdd: OnAdd
  className: string
}) {
  return (
    <button
      type="button"
      className={`add-button ${className}`}
      onClick={() => onAdd({ kind: 'subworkflow', workflowId: goal.id })}
      aria-label={`Add activity to goal ${goal.title}`}
    >
      + Add activity
    </button>
  )
}

function sameRow(before: ReleaseProps, after: ReleaseProps) {
  for (const key of Object.keys(after) as (keyof ReleaseProps)[]) {
    if (key !== 'cells' && before[key] !== after[key]) return false
  }
  return after.goals.every((goal) =>
    goal.activities.every((activity) => {
      const key = cellKey(after.milestone.id, activity.id)
      return before.cells.get(key) === after.cells.get(key)
    }),
  )
}

/** One release: its header and a cell per activity. Cells whose features did not change skip rendering. */
export const ReleaseRow = memo(function ReleaseRow({
  milestone,
  size,
  count,
  index,
  goals,
  cells,
  onAdd,
  ...view
}: ReleaseProps) {
  const { readOnly, basePath, search } = view
  return (
    <Draggable draggableId={milestone.id} index={index} isDragDisabled={readOnly}>
      {(drag, snapshot) => (
        <section
          className={`release ${snapshot.isDragging ? 'dragging' : ''}`}
          ref={drag.innerRef}
          {...drag.draggableProps}
          aria-label={`Release ${milestone.title}`}
        >
          <div
            className="release-header"
            {...drag.dragHandleProps}
            aria-label={`Drag release ${milestone.title}`}
          >
            <CardTile
              to={`${basePath}/m/${milestone.id}${search}`}
              title={milestone.title}
              color={milestone.color}
              status={milestone.status}
              annotations={milestone.annotations}
              kindLabel="Release"
              className="release-card"
            />
            <span className="release-stats">
              <span title="Total size">{`Size ${size}`}</span> · <span>{`${count} features`}</span>
            </span>
          </div>
          <div className="release-cells">
            {goals.map((goal) => (
              <CellGroup
                key={goal.workflow.id}
                goal={goal}
                milestone={milestone}
                cells={cells}
                onAdd={onAdd}
                {...view}
              />
            ))}
          </div>
        </section>
      )}
    </Draggable>
  )
}, sameRow)

type CellGroupProps = BoardLinks & {
  goal: GoalColumn
  milestone: Milestone
  cells: Map<string, Feature[]>
  showClosed: boolean
  onAdd: OnAdd
}

/** The cells of one goal in one release; they accept drops while near the screen (near-viewport.tsx). */
function CellGroup({ goal, milestone, cells, onAdd, ...view }: CellGroupProps) {
  const ref = useRef<HTMLDivElement>(null)
  const near = useNearViewport(ref)
  return (
    <div className="cell-group" ref={ref} style={{ width: columnsWidth(goal) }}>
      {goal.activities.length === 0 ? <div className="cell placeholder" /> : null}
      {goal.activities.map((activity) => (
        <Cell
          key={activity.id}
          milestoneId={milestone.id}
          milestoneTitle={milestone.title}
          activityId={activity.id}
          activityTitle={activity.title}
          features={cells.get(cellKey(milestone.id, activity.id))}
          onAdd={onAdd}
          dropEnabled={near}
          {...view}
        />
      ))}
    </div>
  )
}

type CellProps = BoardLinks & {
  milestoneId: string
  milestoneTitle: string
  activityId: string
  activityTitle: string
  features: Feature[] | undefined
  showClosed: boolean
  dropEnabled: boolean
  onAdd: OnAdd
}

const Cell = memo(function Cell({
  milestoneId,
  milestoneTitle,
  activityId,
  activityTitle,
  features,
  onAdd,
  readOnly,
  showClosed,
  dropEnabled,
  basePath,
  search,
}: CellProps) {
  // The drag library re-renders every cell's Droppable when a drag starts and ends; handing it
  // the same card elements each time lets React skip the thousands of cards inside.
  const cards = useMemo(
    () =>
      (features ?? [])
        .filter((f) => showClosed || f.status !== 'CLOSED')
        .map((f, i) => (
          <Draggable key={f.id} draggableId={f.id} index={i} isDragDisabled={readOnly}>
            {(d, s) => (
              <CardTile
                to={`${basePath}/f/${f.id}${search}`}
                title={f.title}
                color={f.color}
                status={f.status}
                annotations={f.annotations}
                size={f.estimate}
                kindLabel="Feature"
                className="feature-card"
                provided={d}
                dragging={s.isDragging}
              />
            )}
          </Draggable>
        )),
    [features, showClosed, readOnly, basePath, search],
  )
  return (
    <Droppable
      droppableId={`cell:${milestoneId}:${activityId}`}
      type="FEATURE"
      isDropDisabled={readOnly || !dropEnabled}
    >
      {(drop, snapshot) => (
        <div
          className={`cell ${snapshot.isDraggingOver ? 'over' : ''}`}
          ref={drop.innerRef}
          {...drop.droppableProps}
        >
          {cards}
          {drop.placeholder}
          {!readOnly ? (
            <button
              type="button"
              className="add-feature"
              onClick={() => onAdd({ kind: 'feature', milestoneId, subWorkflowId: activityId })}
              aria-label={`Add feature to ${milestoneTitle} / ${activityTitle}`}
            >
              +
            </button>
          ) : null}
        </div>
      )}
    </Droppable>
  )
})
