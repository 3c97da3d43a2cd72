import { useEffect, useState } from 'react'
import { useBoard } from '~/features/board/ui/board-context'

/**
 * `Watch` / `Unwatch` for a feature in the card dialog (CONTRACT §12): watchers get an e-mail for
 * new comments. Asks the board's own route; shown only on a member's board (not a public link).
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
    setBusy(true)
    try {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ watching: !watching }),
      })
      if (r.ok) setWatching(((await r.json()) as { watching: boolean }).watching)
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" className="button small" aria-pressed={watching} disabled={busy} onClick={() => void toggle()}>
      {watching ? 'Unwatch' : 'Watch'}
    </button>
  )
}
