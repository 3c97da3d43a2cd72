import type { LiveInfo } from '~/features/board/ui'

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const letters =
    words.length > 1 ? [words[0][0], words[words.length - 1][0]] : [...(words[0] ?? '?')].slice(0, 2)
  return letters.join('').toUpperCase()
}

/**
 * Who is on this map now (CONTRACT §6 presence), and a small `Reconnecting…` while the live
 * stream is away. Each avatar's accessible name is the person's name.
 */
export function LivePresence({ live, me }: { live: LiveInfo; me: { memberId: string } }) {
  return (
    <div className="live-presence">
      {live.status === 'reconnecting' ? (
        <span className="live-status" role="status">
          Reconnecting…
        </span>
      ) : null}
      {live.viewers.length > 0 ? (
        <ul className="viewers" aria-label="People viewing this map">
          {live.viewers.map((viewer) => {
            const label = viewer.memberId === me.memberId ? `${viewer.name} (you)` : viewer.name
            return (
              <li key={viewer.memberId} className="viewer-avatar" title={label}>
                <span role="img" aria-label={label}>
                  {initials(viewer.name)}
                </span>
              </li>
            )
          })}
        </ul>
      ) : null}
    </div>
  )
}
