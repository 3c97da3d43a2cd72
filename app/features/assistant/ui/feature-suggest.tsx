import { useNavigate } from 'react-router'
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react'
import type { Feature } from '~/features/map/bundle-types'
import { useBoard } from '~/features/board/ui'
import { askAssistant } from './assistant-client'
import { focusTileWhenShown, splitCommands, withAcceptanceCriteria, type Suggestion } from './suggest-writes'
import { ActionAndCancel } from '~/ui/action-and-cancel'

type Shown =
  | { kind: 'idle' }
  | { kind: 'busy'; text: string }
  | { kind: 'failed'; message: string }
  | { kind: 'split'; suggestions: Suggestion[]; ticked: boolean[] }
  | { kind: 'criteria'; criteria: string[] }

const BUSY = {
  split: 'Asking the assistant for smaller features…',
  criteria: 'Asking the assistant for acceptance criteria…',
}

/**
 * `Suggest` in a feature's dialog (CONTRACT §16): smaller features to add after it, or acceptance
 * criteria to append to its description. Nothing is written until `Add` or `Apply`, and then only
 * through the board's own commands (live, undoable, webhooks).
 */
export function FeatureSuggest({ feature }: { feature: Feature }) {
  const { bundle, dispatch, basePath, search } = useBoard()
  const navigate = useNavigate()
  const id = useId()
  const [menuOpen, setMenuOpen] = useState(false)
  const [shown, setShown] = useState<Shown>({ kind: 'idle' })
  const opener = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const asking = useRef<AbortController | null>(null)
  useEffect(() => () => asking.current?.abort(), [])
  useEffect(() => {
    if (menuOpen) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
  }, [menuOpen])
  useEffect(() => {
    if (shown.kind === 'split' || shown.kind === 'criteria') heading.current?.focus()
  }, [shown.kind])

  const ask = async (action: 'split' | 'criteria') => {
    setMenuOpen(false)
    asking.current?.abort()
    const controller = (asking.current = new AbortController())
    setShown({ kind: 'busy', text: BUSY[action] })
    const answer = await askAssistant<{ suggestions?: Suggestion[]; criteria?: string[] }>(
      `/v1/features/${feature.id}/assistant`,
      bundle.project.workspaceId,
      { action },
      controller.signal,
    ).catch(() => null)
    if (!answer || controller.signal.aborted) return
    if (!answer.ok) return setShown({ kind: 'failed', message: answer.message })
    const { suggestions = [], criteria = [] } = answer.data
    setShown(
      action === 'split'
        ? { kind: 'split', suggestions, ticked: suggestions.map(() => true) }
        : { kind: 'criteria', criteria },
    )
  }

  // Escape closes the menu only (not the dialog); the arrows go from one item to the other.
  const onMenuKey = (event: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
    const at = items.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') {
      // React listens on the document, as the dialog's Escape does (registered after React's).
      event.nativeEvent.stopImmediatePropagation()
      setMenuOpen(false)
      opener.current?.focus()
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus()
    }
  }

  const drop = () => {
    setShown({ kind: 'idle' })
    opener.current?.focus()
  }

  const add = (chosen: Suggestion[]) => {
    const { commands, ids } = splitCommands(feature, chosen)
    for (const command of commands) dispatch(command)
    navigate(`${basePath}${search}`, { preventScrollReset: true })
    focusTileWhenShown(ids[0], feature.id)
  }

  const apply = (criteria: string[]) => {
    dispatch({
      type: 'card.description',
      kind: 'feature',
      id: feature.id,
      description: withAcceptanceCriteria(feature.description, criteria),
    })
    drop()
  }

  return (
    <div className="assistant-suggest">
      <div className="card-menu">
        <button
          ref={opener}
          type="button"
          className="button small"
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? `${id}-menu` : undefined}
          disabled={shown.kind === 'busy'}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Suggest
        </button>
        {menuOpen ? (
          <div
            ref={menu}
            id={`${id}-menu`}
            className="menu menu-left"
            role="menu"
            aria-label="Suggest"
            onKeyDown={onMenuKey}
          >
            <button type="button" role="menuitem" className="menu-button" onClick={() => void ask('split')}>
              Split into smaller features
            </button>
            <button
              type="button"
              role="menuitem"
              className="menu-button"
              onClick={() => void ask('criteria')}
            >
              Acceptance criteria
            </button>
          </div>
        ) : null}
      </div>
      <p role="status" className="assistant-busy">
        {shown.kind === 'busy' ? shown.text : ''}
      </p>
      {shown.kind === 'failed' ? (
        <div className="errors" role="alert">
          <p>{shown.message}</p>
        </div>
      ) : null}
      {shown.kind === 'split' ? (
        <SuggestResult
          id={`${id}-split`}
          title="Smaller features"
          heading={heading}
          action="Add"
          disabled={!shown.ticked.some(Boolean)}
          onAction={() => add(shown.suggestions.filter((_, i) => shown.ticked[i]))}
          onCancel={drop}
        >
          <ul className="assistant-suggestions">
            {shown.suggestions.map((s, i) => (
              <li key={i}>
                <input
                  type="checkbox"
                  id={`${id}-s${i}`}
                  checked={shown.ticked[i]}
                  aria-describedby={s.description ? `${id}-d${i}` : undefined}
                  onChange={(e) =>
                    setShown({
                      ...shown,
                      ticked: shown.ticked.map((t, j) => (j === i ? e.target.checked : t)),
                    })
                  }
                />
                <div>
                  <label htmlFor={`${id}-s${i}`}>{s.title}</label>
                  {s.description ? (
                    <p id={`${id}-d${i}`} className="small muted">
                      {s.description}
                    </p>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </SuggestResult>
      ) : null}
      {shown.kind === 'criteria' ? (
        <SuggestResult
          id={`${id}-criteria`}
          title="Acceptance criteria"
          heading={heading}
          action="Apply"
          onAction={() => apply(shown.criteria)}
          onCancel={drop}
        >
          <ul className="assistant-criteria">
            {shown.criteria.map((c, i) => (
              <li key={i}>{c}</li>
            ))}
          </ul>
          <p className="small muted">Apply appends them to the description as a checklist.</p>
        </SuggestResult>
      ) : null}
    </div>
  )
}

/** What a suggestion came back with: a group named by its heading (which takes the focus), then its action and Cancel. */
function SuggestResult({
  id,
  title,
  heading,
  action,
  disabled = false,
  onAction,
  onCancel,
  children,
}: {
  id: string
  title: string
  heading: RefObject<HTMLHeadingElement>
  action: string
  disabled?: boolean
  onAction: () => void
  onCancel: () => void
  children: ReactNode
}) {
  return (
    <div className="assistant-result" aria-labelledby={id} role="group">
      <h3 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      {children}
      <ActionAndCancel action={action} disabled={disabled} onAction={onAction} onCancel={onCancel} />
    </div>
  )
}
