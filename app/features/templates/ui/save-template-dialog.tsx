import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react'
import { useFetcher } from 'react-router'
import { useBoard } from '~/features/board/ui'
import { useMessages } from '~/ui/messages'
import { Modal } from '~/ui/modal'
import { templateTitleProblem } from '../template-title'

type SaveAnswer = { ok?: boolean; template?: { title: string }; message?: string }

/**
 * The board menu's `Save as template` (CONTRACT §16, OWNERs and ADMINs): a title, prefilled with
 * the project's, then the map as it is now becomes one of the workspace's templates. Says it was
 * saved; a refusal shows in the dialog. The board's route checks the permission again.
 */
export function SaveTemplateDialog({ onClose }: { onClose: () => void }) {
  const { basePath, bundle } = useBoard()
  const fetcher = useFetcher<SaveAnswer>()
  const { push } = useMessages()
  const ids = { title: useId(), error: useId() }
  const [title, setTitle] = useState(bundle.project.title)
  const [error, setError] = useState<string | null>(null)
  const busy = fetcher.state !== 'idle'
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined

  useEffect(() => {
    if (!answer) return
    if (answer.ok && answer.template) {
      push('success', `Saved as template “${answer.template.title}”.`)
      onClose()
    } else setError(answer.message ?? 'Something went wrong.')
  }, [answer, push, onClose])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problem = templateTitleProblem(title)
    if (problem) return setError(problem)
    setError(null)
    fetcher.submit(
      { title: title.trim() },
      {
        method: 'post',
        action: `${basePath}/template`,
        encType: 'application/json',
      },
    )
  }

  return (
    <Modal title="Save as template" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p className="muted">
          The map as it is now (goals, activities, releases, features, personas and tags, without comments)
          becomes a template of this workspace, offered in New project.
        </p>
        <div className="field">
          <label htmlFor={ids.title}>Title</label>
          <input
            id={ids.title}
            type="text"
            autoComplete="off"
            autoFocus
            value={title}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          {error ? (
            <div id={ids.error} className="errors" role="alert">
              <p>{error}</p>
            </div>
          ) : null}
        </div>
        <div className="row end">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  )
}

/**
 * `Save as template` on a member's board: the dialog while `open`, and focus back on the menu's
 * button (`returnFocus`) when it closes, as the menu item that opened it is gone.
 */
export function SaveTemplateBoard({
  open,
  setOpen,
  returnFocus,
}: {
  open: boolean
  setOpen: (open: boolean) => void
  returnFocus: RefObject<HTMLElement | null>
}) {
  const wasOpen = useRef(open)
  useEffect(() => {
    const active = document.activeElement
    if (wasOpen.current && !open && (active === null || active === document.body))
      returnFocus.current?.focus()
    wasOpen.current = open
  }, [open, returnFocus])
  const close = useCallback(() => setOpen(false), [setOpen])
  return open ? <SaveTemplateDialog onClose={close} /> : null
}
