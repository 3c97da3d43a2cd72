import { useCallback, useEffect, useState } from 'react'
import { callApi } from '~/features/board/ui'
import { boardOutbox } from '~/features/board/ui'
import { RelativeTime } from '~/ui/relative-time'

export type TrashItem = {
  id: string
  kind: string
  title: string
  deletedAt: string
  deletedBy: { memberId: string; name: string }
  cards: number
}

const LABEL: Record<string, string> = {
  project: 'Project',
  milestone: 'Release',
  workflow: 'Goal',
  subWorkflow: 'Activity',
  feature: 'Feature',
}

/**
 * A trash list (CONTRACT §7): what was deleted, by whom and when, with Restore and Delete
 * forever (after a confirmation) for those who may edit. `listPath` is the project's or the
 * workspace's trash; `onRestored` runs after a restore (e.g. to reload the project list).
 */
export function TrashList({
  listPath,
  workspaceId,
  commandsUrl,
  canEdit,
  onRestored,
}: {
  listPath: string
  workspaceId: string
  /** The page's command route: Restore and Delete forever go there through the page's outbox. */
  commandsUrl: string
  canEdit: boolean
  onRestored?: (item: TrashItem) => void
}) {
  const [items, setItems] = useState<TrashItem[] | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [confirming, setConfirming] = useState<string | null>(null)
  const refresh = useCallback(async () => {
    const res = await callApi<{ items: TrashItem[] }>(listPath, workspaceId)
    if (res.ok) setItems(res.data.items)
    else setMessage(res.message)
  }, [listPath, workspaceId])
  useEffect(() => void refresh(), [refresh])

  const restore = async (item: TrashItem) => {
    if (!boardOutbox) return
    const res = await boardOutbox.send(commandsUrl, { type: 'trash.restore', id: item.id })
    setMessage(res.ok ? `Restored '${item.title}'.` : res.message || 'Something went wrong.')
    if (res.ok) onRestored?.(item)
    await refresh()
  }
  const purge = async (item: TrashItem) => {
    setConfirming(null)
    if (!boardOutbox) return
    const res = await boardOutbox.send(commandsUrl, { type: 'trash.purge', id: item.id })
    setMessage(res.ok ? `Deleted '${item.title}' forever.` : res.message || 'Something went wrong.')
    await refresh()
  }

  return (
    <div className="trash">
      <p className="small muted">Deleted items stay here for 30 days.</p>
      {message ? (
        <p className="trash-message" role="status">
          {message}
        </p>
      ) : null}
      {items?.length === 0 ? <p className="muted">The trash is empty.</p> : null}
      <ul className="trash-list">
        {(items ?? []).map((item) => (
          <li key={item.id} className="trash-item">
            <p>
              <strong>{item.title}</strong>{' '}
              <span className="muted small">{LABEL[item.kind] ?? item.kind}</span>
            </p>
            <p className="small muted">
              {`Deleted by ${item.deletedBy.name} `}
              <RelativeTime at={item.deletedAt} />
              {item.cards > 1 ? ` · ${item.cards} cards` : ''}
            </p>
            {canEdit ? (
              confirming === item.id ? (
                <div className="confirm" role="group" aria-label={`Delete '${item.title}' forever?`}>
                  <p className="small">{`Delete '${item.title}' forever? This cannot be undone.`}</p>
                  <div className="row">
                    <button type="button" className="button danger small" onClick={() => void purge(item)}>
                      Yes, delete forever
                    </button>
                    <button type="button" className="button small" onClick={() => setConfirming(null)}>
                      Cancel
                    </button>
                  </div>
                </div>
              ) : (
                <div className="row">
                  <button
                    type="button"
                    className="button small"
                    onClick={() => void restore(item)}
                    aria-label={`Restore ${item.title}`}
                  >
                    Restore
                  </button>
                  <button
                    type="button"
                    className="button small"
                    onClick={() => setConfirming(item.id)}
                    aria-label={`Delete forever ${item.title}`}
                  >
                    Delete forever
                  </button>
                </div>
              )
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  )
}
