import { useId, useRef, useState, type FormEvent } from 'react'
import { byRank } from '~/features/board/board-grid'
import type { Feature } from '~/features/map/bundle-types'
import { cellName } from '~/features/board/drag-moves'
import { placeBetween } from '~/features/map/rank'
import { useBoard } from './board-context'

const closedMark = (card: { status: string }) => (card.status === 'CLOSED' ? ' (closed)' : '')

/**
 * `Move to…` in a feature's dialog: the release and activity it goes to, for anyone who does not
 * drag (WCAG 2.1.1). It goes last in that cell, as the board's move command, like a drop; the
 * board's live region says where it went.
 */
export function MoveTo({ feature }: { feature: Feature }) {
  const { bundle, dispatch, notify } = useBoard()
  const [open, setOpen] = useState(false)
  const [release, setRelease] = useState(feature.milestoneId)
  const [activity, setActivity] = useState(feature.subWorkflowId)
  const toggle = useRef<HTMLButtonElement>(null)
  const id = useId()
  const releases = [...bundle.milestones].sort(byRank)
  const goals = [...bundle.workflows].sort(byRank)
  const activitiesOf = (goalId: string) =>
    bundle.subWorkflows.filter((s) => s.workflowId === goalId).sort(byRank)

  const done = () => {
    setOpen(false)
    toggle.current?.focus()
  }
  const move = (event: FormEvent) => {
    event.preventDefault()
    const releaseCard = bundle.milestones.find((m) => m.id === release)
    const activityCard = bundle.subWorkflows.find((s) => s.id === activity)
    if (!releaseCard || !activityCard) return done()
    if (release !== feature.milestoneId || activity !== feature.subWorkflowId) {
      const siblings = bundle.features
        .filter((f) => f.milestoneId === release && f.subWorkflowId === activity && f.id !== feature.id)
        .sort(byRank)
      dispatch({
        type: 'feature.move',
        id: feature.id,
        toMilestoneId: release,
        toSubWorkflowId: activity,
        ...placeBetween(siblings, siblings.length),
      })
      notify?.({
        text: `Moved '${feature.title}' to ${cellName(releaseCard.title, activityCard.title)}`,
        stillTrue: (b) => {
          const now = b.features.find((f) => f.id === feature.id)
          return now?.milestoneId === release && now.subWorkflowId === activity
        },
      })
    }
    done()
  }

  return (
    <div className="move-to">
      <button
        ref={toggle}
        type="button"
        className="button small"
        aria-expanded={open}
        aria-controls={open ? `${id}-form` : undefined}
        onClick={() => {
          setRelease(feature.milestoneId)
          setActivity(feature.subWorkflowId)
          setOpen(!open)
        }}
      >
        Move to…
      </button>
      {open ? (
        <form id={`${id}-form`} className="move-to-form" aria-label="Move to" onSubmit={move}>
          <div className="field">
            <label htmlFor={`${id}-release`}>Release</label>
            <select
              id={`${id}-release`}
              autoFocus
              value={release}
              onChange={(e) => setRelease(e.target.value)}
            >
              {releases.map((m) => (
                <option key={m.id} value={m.id}>
                  {`${m.title}${closedMark(m)}`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-activity`}>Activity</label>
            <select id={`${id}-activity`} value={activity} onChange={(e) => setActivity(e.target.value)}>
              {goals.map((g) => (
                <optgroup key={g.id} label={`${g.title}${closedMark(g)}`}>
                  {activitiesOf(g.id).map((a) => (
                    <option key={a.id} value={a.id}>
                      {`${a.title}${closedMark(a)}`}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <div className="row">
            <button type="submit" className="button primary small">
              Move
            </button>
            <button type="button" className="button small" onClick={done}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </div>
  )
}
