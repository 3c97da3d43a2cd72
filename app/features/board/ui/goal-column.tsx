import { Draggable, Droppable } from '@hello-pangea/dnd'
import { memo } from 'react'
import type { GoalColumn } from '~/features/board/board-grid'
import { addActivityNavId } from '~/features/board/board-nav'
import type { Persona } from '~/features/map/bundle-types'
import type { GoalTotals } from '~/features/board/board-view'
import type { PrintLayout } from '~/features/board/print-layout'
import type { PersonaView } from './board-context'
import { columnsWidth, printStyle, type BoardLinks, type OnAdd } from './board-rows'
import { CardTile } from './card-tile'
import { PersonaAvatar } from './persona-avatar'
import { CardProgress, FoldButton, FoldedGoal, useFolds } from './overview-parts'

type GoalProps = BoardLinks & {
  goal: GoalColumn
  index: number
  personas: Persona[]
  onAdd: OnAdd
  openPersonas: (view: PersonaView) => void
  /** The goal's sums under the search and filters; undefined without them. */
  filtered: GoalTotals | undefined
  print: PrintLayout
}

/** A goal: its personas and tools, its card, and its activities (memoised like the rows, see board-rows.tsx). */
export const GoalColumnView = memo(function GoalColumnView(props: GoalProps) {
  const { goal, index, personas, onAdd, openPersonas, readOnly, basePath, search, filtered, print } = props
  const { workflow, activities, activitySizes, size } = goal
  const place = print.goals.get(workflow.id)
  const folds = useFolds()
  const folded = folds.goals.has(workflow.id)
  return (
    <Draggable draggableId={workflow.id} index={index} isDragDisabled={readOnly}>
      {(drag, snapshot) => (
        <div
          className={`goal-column ${snapshot.isDragging ? 'dragging' : ''} ${folded ? 'folded' : ''}`}
          ref={drag.innerRef}
          {...drag.draggableProps}
          style={{ ...drag.draggableProps.style, width: columnsWidth(goal, folded) }}
        >
          <div
            className={`goal-head ${place && place.band > 0 && place.column === 0 ? 'band-start' : ''}`}
            style={printStyle(place, place?.span)}
          >
            <div className="goal-tools">
              <FoldButton
                title={workflow.title}
                folded={folded}
                onFold={(fold) => folds.foldGoal(workflow.id, fold)}
              />
              <div className="goal-personas">
                {personas.map((p) => (
                  <button
                    key={p.id}
                    type="button"
                    className="persona-chip"
                    tabIndex={-1}
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
                    tabIndex={-1}
                    onClick={() => openPersonas({ page: 'add', workflowId: workflow.id })}
                    aria-label={`Add persona to goal ${workflow.title}`}
                  >
                    <span aria-hidden="true">+</span>
                  </button>
                ) : null}
              </div>
              {!readOnly && activities.length > 0 ? (
                <AddActivityButton className="small-add" goal={workflow} onAdd={onAdd} />
              ) : null}
            </div>
            <h2 className="board-heading">
              <CardTile
                to={`${basePath}/w/${workflow.id}${search}`}
                title={workflow.title}
                color={workflow.color}
                status={workflow.status}
                annotations={workflow.annotations}
                size={size}
                filteredSize={filtered?.size}
                kindLabel="Goal"
                className="goal-card"
                dragHandle={drag.dragHandleProps}
                navId={workflow.id}
              >
                <CardProgress kind="goal" id={workflow.id} />
              </CardTile>
            </h2>
          </div>
          {folded ? (
            <FoldedGoal activities={activities.length} />
          ) : (
            <Droppable
              droppableId={`activities:${workflow.id}`}
              type="ACTIVITY"
              direction="horizontal"
              isDropDisabled={readOnly}
            >
              {(drop) => (
                <div className="activity-row" ref={drop.innerRef} {...drop.droppableProps}>
                  {activities.map((activity, i) => (
                    <Draggable
                      key={activity.id}
                      draggableId={activity.id}
                      index={i}
                      isDragDisabled={readOnly}
                    >
                      {(d, s) => (
                        <div className="activity-slot" style={printStyle(print.columns.get(activity.id))}>
                          <CardTile
                            to={`${basePath}/sw/${activity.id}${search}`}
                            title={activity.title}
                            color={activity.color}
                            status={activity.status}
                            annotations={activity.annotations}
                            size={activitySizes[i]}
                            filteredSize={filtered?.activitySizes[i]}
                            kindLabel="Activity"
                            className="activity-card"
                            provided={d}
                            dragging={s.isDragging}
                            navId={activity.id}
                          >
                            <CardProgress kind="activity" id={activity.id} />
                          </CardTile>
                        </div>
                      )}
                    </Draggable>
                  ))}
                  {drop.placeholder}
                  {!readOnly && activities.length === 0 ? (
                    <AddActivityButton className="add-activity" goal={workflow} onAdd={onAdd} navigable />
                  ) : null}
                </div>
              )}
            </Droppable>
          )}
        </div>
      )}
    </Draggable>
  )
})

/** `+ Add activity`; the one in an empty activity row is a stop of the arrow keys. */
function AddActivityButton({
  goal,
  onAdd,
  className,
  navigable,
}: {
  goal: { id: string; title: string }
  onAdd: OnAdd
  className: string
  navigable?: boolean
}) {
  return (
    <button
      type="button"
      className={`add-button ${className}`}
      tabIndex={-1}
      data-nav={navigable ? addActivityNavId(goal.id) : undefined}
      onClick={() => onAdd({ kind: 'subworkflow', workflowId: goal.id })}
      aria-label={`Add activity to goal ${goal.title}`}
    >
      <span aria-hidden="true">+ </span>Add activity
    </button>
  )
}
