import { useFetchers, useRevalidator } from 'react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useMessages } from '~/ui/messages'
import type { BoardCommand } from '~/features/board'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { boardOutbox } from '~/features/board/ui'
import { newId } from '~/lib/uuid'
import type { HistoryState } from '~/features/board'

export type { HistoryState }

/** What the member's Undo and Redo would do now (from the project loader), null when nothing. */
type Op = 'undo' | 'redo'

const TOAST_MS = 8000
const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))
}

/**
 * Runs undo or redo through the page's outbox, after the edits before it, then reloads the page's
 * data (the live stream brings the change too). `commandsUrl`: the board's command route.
 */
function useHistoryActions(commandsUrl: string, state: HistoryState) {
  const revalidator = useRevalidator()
  const { push } = useMessages()
  const busy = useRef(false)
  return useCallback(
    /** `force`: try even when the page's state says there is nothing (it may not know of a change just made). */
    async (op: Op, force = false) => {
      if ((!state[op] && !force) || busy.current) return
      // Undo takes back what the server has: edits still waiting to be sent go first.
      if (boardOutbox && (!navigator.onLine || boardOutbox.getState().offline))
        return push('fail', `Cannot ${op} while offline.`)
      if (!boardOutbox) return
      busy.current = true
      const res = await boardOutbox.send(commandsUrl, { type: `history.${op}`, requestId: newId() })
      busy.current = false
      if (!res.ok)
        push(
          'fail',
          res.error === 'undo_conflict'
            ? `Cannot ${op}: someone else has changed this since.`
            : res.message || 'Something went wrong.',
        )
      revalidator.revalidate()
    },
    [commandsUrl, state, push, revalidator],
  )
}

/**
 * Undo and Redo (CONTRACT §7): buttons, disabled with a tooltip when there is nothing, and
 * Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z and Ctrl+Y anywhere on the board except while typing in a field.
 */
export function HistoryControls({ commandsUrl, state }: { commandsUrl: string; state: HistoryState }) {
  const run = useHistoryActions(commandsUrl, state)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e.target) || e.altKey || !(e.ctrlKey || e.metaKey)) return
      const key = e.key.toLowerCase()
      const op: Op | null =
        key === 'z' ? (e.shiftKey ? 'redo' : 'undo') : key === 'y' && e.ctrlKey ? 'redo' : null
      if (!op || document.querySelector('[role="dialog"]')) return
      e.preventDefault()
      void run(op)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [run])
  const mod = isMac() ? '⌘' : 'Ctrl+'
  const button = (op: Op, label: string, keys: string) => {
    const what = state[op]
    const tip = what ? `${label}: ${what} (${keys})` : `Nothing to ${op}`
    return (
      <>
        <button
          type="button"
          className="button small"
          aria-disabled={what ? undefined : true}
          aria-describedby={`history-${op}-tip`}
          title={tip}
          onClick={() => void run(op)}
        >
          {label}
        </button>
        <span id={`history-${op}-tip`} className="sr-only">
          {tip}
        </span>
      </>
    )
  }
  return (
    <span className="history-controls" role="group" aria-label="History">
      {button('undo', 'Undo', `${mod}Z`)}
      {button('redo', 'Redo', `${mod}Shift+Z`)}
    </span>
  )
}

const cardsOf = (b: ProjectBundle) =>
  [b.milestones, b.workflows, b.subWorkflows, b.features] as { id: string; title: string; status: string }[][]
const findCard = (b: ProjectBundle, id: string) => {
  for (const list of cardsOf(b)) {
    const card = list.find((c) => c.id === id)
    if (card) return card
  }
  return undefined
}

/** A toast's words, and whether what it says still holds (else its Undo has nothing to take back). */
type Toast = { text: string; stillTrue: (b: ProjectBundle) => boolean; key: number }

/**
 * The board's dispatch with a `Deleted '{title}' · Undo` toast after each card delete and a
 * `Closed '{title}' · Undo` one after each close, and the toast itself, which dialogs may also
 * use (`notify`). It is the board's live region: a screen reader reads it out.
 */
export function useDeleteToast(
  bundle: ProjectBundle,
  dispatch: (command: BoardCommand) => void,
  state: HistoryState | null,
  commandsUrl: string,
) {
  const [toast, setToast] = useState<Toast | null>(null)
  const run = useHistoryActions(commandsUrl, state ?? { undo: null, redo: null })
  // The delete must have reached the server before its undo can.
  const saving = useFetchers().some((f) => f.state !== 'idle')
  const latest = useRef(bundle)
  latest.current = bundle
  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(() => setToast(null), TOAST_MS)
    return () => clearTimeout(timer)
  }, [toast])
  // The card is back (restored from the trash by someone, reopened, or its change refused): nothing to undo here.
  const over = toast !== null && !toast.stillTrue(bundle)
  useEffect(() => {
    if (over) setToast(null)
  }, [over])
  const notify = useCallback(
    (notice: { text: string; stillTrue: (b: ProjectBundle) => boolean }) =>
      setToast({ ...notice, key: Date.now() }),
    [],
  )
  const dispatchWithToast = useCallback(
    (command: BoardCommand) => {
      if (
        state &&
        (command.type === 'card.delete' || command.type === 'card.close') &&
        command.kind !== 'project'
      ) {
        const card = findCard(latest.current, command.id)
        if (card && command.type === 'card.delete')
          notify({ text: `Deleted '${card.title}'`, stillTrue: (b) => findCard(b, card.id) === undefined })
        else if (card)
          notify({
            text: `Closed '${card.title}'`,
            stillTrue: (b) => findCard(b, card.id)?.status !== 'OPEN',
          })
      }
      dispatch(command)
    },
    [dispatch, state, notify],
  )
  const element = toast ? (
    <div className="undo-toast" role="status" key={toast.key}>
      <span>{toast.text}</span>
      <span aria-hidden="true"> · </span>
      <button
        type="button"
        className="link-button"
        aria-disabled={saving ? true : undefined}
        onClick={() => {
          if (saving) return
          setToast(null)
          void run('undo', true)
        }}
      >
        Undo
      </button>
    </div>
  ) : null
  return { dispatch: dispatchWithToast, toast: element, notify: state ? notify : undefined }
}
