import { useEffect, useState } from 'react'
import { useBoard } from '~/features/board/ui'
import { boardOutbox } from '~/features/board/ui'

/**
 * `Watch`, a toggle button, for a feature in the card dialog (CONTRACT §12): pressed while the
 * member watches it (pressing it again unwatches). Watchers get an e-mail for
 * new comments. Reads the board's watch route; the change goes through the page's outbox like
 * every board write. Shown only on a member's board (not a public link).
 */
export function WatchButton({ featureId }: { featureId: string }) {
  const { basePath, mode } = useBoard()
  const [watching, setWatching] = useState<boolean | null>(null)
  const [busy, setBusy] = useState(false)
  const url = `${basePath}/watch/${featureId}`
  const member = mode !== 'demo' && !basePath.startsWith('/link/')
  useEffect(() => {
    if (!member) return
    let live = true
    fetch(url, { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body: { watching?: boolean } | null) => live && body && setWatching(!!body.watching))
      .catch(() => {})
    return () => {
      live = false
    }
  }, [url, member])
  if (!member || watching === null) return null
  const toggle = async () => {
    if (!boardOutbox) return
    setBusy(true)
    try {
      const res = await boardOutbox.send(`${basePath}/commands`, {
        type: 'feature.watch',
        featureId,
        watching: !watching,
      })
      if (res.ok) setWatching(res.body?.watching === true)
    } finally {
      setBusy(false)
    }
  }
  return (
    // One name, pressed or not: `Unwatch` pressed read as a contradiction.
    <button
      type="button"
      className="button small"
      aria-pressed={watching}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {watching ? <span aria-hidden="true">✓ </span> : null}Watch
    </button>
  )
}
