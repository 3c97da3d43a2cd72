import type { Feature } from '~/features/map/bundle-types'
import type { BoardCommand } from '~/features/board'
import { newId } from '~/lib/uuid'

export type Suggestion = { title: string; description: string }

/** The feature's description with the checklist appended under `### Acceptance criteria`. */
export function withAcceptanceCriteria(description: string, criteria: string[]): string {
  const list = criteria.map((c) => `- [ ] ${c}`).join('\n')
  const before = description.trimEnd()
  return `${before}${before ? '\n\n' : ''}### Acceptance criteria\n\n${list}\n`
}

/**
 * The board's ordinary commands that add the suggestions in the feature's cell, one after another
 * right after it: each is created, put in its place, then given its description. Returns the ids.
 */
export function splitCommands(feature: Feature, suggestions: Suggestion[]) {
  const commands: BoardCommand[] = []
  const ids: string[] = []
  let after = feature.id
  for (const { title, description } of suggestions) {
    const id = newId()
    const place = { toMilestoneId: feature.milestoneId, toSubWorkflowId: feature.subWorkflowId }
    commands.push(
      {
        type: 'feature.create',
        id,
        milestoneId: feature.milestoneId,
        subWorkflowId: feature.subWorkflowId,
        title,
      },
      { type: 'feature.move', id, ...place, afterId: after },
    )
    if (description.trim()) commands.push({ type: 'card.description', kind: 'feature', id, description })
    ids.push(id)
    after = id
  }
  return { commands, ids }
}

const tileOf = (id: string) => document.querySelector<HTMLElement>(`a.card-tile[href*="/${CSS.escape(id)}"]`)

/**
 * Focuses a card's tile on the board once it is drawn and no dialog is open (a few seconds at
 * most). The closing dialog gives the focus back to its opener (`openerId`'s tile) in an effect
 * that may run a frame after the tile was focused: for ten frames the tile takes it back from
 * the opener or the page's body, never from anything else the user went to.
 */
export function focusTileWhenShown(id: string, openerId: string) {
  let tries = 0
  let kept = 0
  const attempt = () => {
    const dialogOpen = document.querySelector('[role="dialog"][aria-modal="true"]') !== null
    const tile = tileOf(id)
    if (tile && !dialogOpen) {
      const active = document.activeElement
      if (active !== tile && (!active || active === document.body || active === tileOf(openerId)))
        tile.focus()
      if (++kept === 10) return
    }
    if (++tries < 180) requestAnimationFrame(attempt)
  }
  requestAnimationFrame(attempt)
}
