import { useNavigate } from 'react-router'
import { useId, useRef, useState, type FormEvent } from 'react'
import { Modal } from '~/ui/modal'
import { TITLE_MAX } from '~/features/map/vocabulary'
import type { ImportFormat } from '~/features/transfer/import'
import { importProject } from './import-request'

/** What the picked file holds, read in the browser before anything is sent. */
type Picked =
  | { ok: true; text: string; format: ImportFormat; summary: string; defaultTitle: string }
  | { ok: false; message: string }

const MAX_BYTES = 10 * 1024 * 1024
const baseName = (name: string) =>
  (
    name
      .replace(/\.(csv|json)$/i, '')
      .replace(/\.storymap$/i, '')
      .trim() || name
  )
    .slice(0, TITLE_MAX)
    .trim()

/** Reads and checks the file in the browser. */
async function readPicked(file: File): Promise<Picked> {
  if (file.size > MAX_BYTES) return { ok: false, message: 'The file is larger than 10 MB.' }
  const text = await file.text()
  const { previewImport } = await import('~/features/transfer/import-preview')
  const preview = previewImport(file.name, text)
  if (!preview.ok) return preview
  return { ...preview, text, defaultTitle: preview.title ?? baseName(file.name) }
}

/**
 * 'Import project' (CONTRACT §8): pick a storymap.csv or a JSON export, see what it holds, then
 * import it as a new project and open its board. Errors, the browser's and the server's, show here.
 */
export function ImportProjectDialog({
  workspaceId,
  workspaceName,
  onClose,
}: {
  workspaceId: string
  workspaceName: string
  onClose: () => void
}) {
  const navigate = useNavigate()
  const ids = { file: useId(), title: useId(), status: useId(), error: useId() }
  const [picked, setPicked] = useState<Picked | null>(null)
  const [reading, setReading] = useState(false)
  const [title, setTitle] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const pickCount = useRef(0)

  const onPick = async (file: File | undefined) => {
    const pick = ++pickCount.current
    setPicked(null)
    setError(null)
    if (!file) return
    setReading(true)
    const result = await readPicked(file).catch((error: unknown) => {
      console.error(error)
      return { ok: false as const, message: 'The file could not be read.' }
    })
    if (pick !== pickCount.current) return // another file was picked meanwhile
    setReading(false)
    setPicked(result)
  }

  const titleError = title.trim().length > TITLE_MAX ? `Project maximum ${TITLE_MAX} characters.` : null

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!picked?.ok || titleError || busy) return
    setBusy(true)
    setError(null)
    const answer = await importProject(workspaceId, {
      text: picked.text,
      format: picked.format,
      title: title.trim() || picked.defaultTitle,
    })
    if (answer.ok) return navigate(`/${workspaceName}/projects/${answer.projectId}`)
    setError(answer.message)
    setBusy(false)
  }

  const fileError = picked && !picked.ok ? picked.message : null
  return (
    <Modal title="Import project" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={ids.file}>File</label>
          <input
            id={ids.file}
            type="file"
            accept=".csv,.json,text/csv,application/json"
            aria-describedby={`${ids.file}-hint ${ids.status}`}
            aria-invalid={fileError ? true : undefined}
            onChange={(e) => void onPick(e.target.files?.[0])}
          />
          <div id={`${ids.file}-hint`} className="hint">
            A storymap.csv (columns release_title, goal_title, activity_title, feature_title, …) or a Storymap
            JSON export, up to 10 MB.
          </div>
        </div>
        <p id={ids.status} className="import-preview" role="status">
          {reading ? 'Reading the file…' : picked?.ok ? picked.summary : ''}
        </p>
        {fileError ? (
          <div className="errors" role="alert">
            <p>{fileError}</p>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={ids.title}>Title (optional)</label>
          <input
            id={ids.title}
            type="text"
            autoComplete="off"
            value={title}
            placeholder={picked?.ok ? picked.defaultTitle : ''}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={titleError ? `${ids.title}-error` : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          {titleError ? (
            <div id={`${ids.title}-error`} className="errors" role="alert">
              <p>{titleError}</p>
            </div>
          ) : null}
        </div>
        {error ? (
          <div id={ids.error} className="errors" role="alert">
            <p>{error}</p>
          </div>
        ) : null}
        <div className="row end">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={!picked?.ok || busy || !!titleError}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
