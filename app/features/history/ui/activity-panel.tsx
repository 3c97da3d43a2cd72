import { useCallback, useEffect, useRef, useState } from 'react'
import { authorLabel } from '~/features/map/author-label'
import { callApi } from '~/features/board/ui'
import { useBoard } from '~/features/board/ui'
import { RelativeTime } from '~/ui/relative-time'
import { SidePanel } from '~/ui/side-panel'

type Item = {
  version: number
  at: string
  by: { memberId: string; name: string; via?: string }
  summary: string
}
type Page = { items: Item[]; next: number | null }

/**
 * The project's activity (CONTRACT §7): who did what, newest first, with relative times. New
 * changes arrive live from the board's stream; older ones load as the list is scrolled to its end.
 */
export function ActivityPanel({ onClose }: { onClose: () => void }) {
  const { bundle, live } = useBoard()
  const projectId = bundle.project.id
  const workspaceId = bundle.project.workspaceId
  const [items, setItems] = useState<Item[]>([])
  const [next, setNext] = useState<number | null | undefined>(undefined)
  const [error, setError] = useState<string | null>(null)
  const loading = useRef(false)
  const endRef = useRef<HTMLDivElement>(null)

  const load = useCallback(
    async (before: number | null) => {
      if (loading.current) return
      loading.current = true
      const query = before === null ? '' : `&before=${before}`
      const res = await callApi<Page>(`/v1/projects/${projectId}/activity?limit=50${query}`, workspaceId)
      loading.current = false
      if (!res.ok) return setError(res.message)
      setItems((current) => {
        const seen = new Set(current.map((i) => i.version))
        return [...current, ...res.data.items.filter((i) => !seen.has(i.version))].sort(
          (a, b) => b.version - a.version,
        )
      })
      setNext(res.data.next)
    },
    [projectId, workspaceId],
  )

  useEffect(() => void load(null), [load])
  const subscribe = live?.subscribe
  useEffect(
    () =>
      subscribe?.((event) =>
        setItems((current) =>
          current.some((i) => i.version === event.version)
            ? current
            : [
                { version: event.version, at: event.at, by: event.by, summary: event.summary ?? '' },
                ...current,
              ],
        ),
      ),
    [subscribe],
  )
  useEffect(() => {
    const end = endRef.current
    if (!end || !next) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void load(next)
    })
    observer.observe(end)
    return () => observer.disconnect()
  }, [next, load])

  return (
    <SidePanel title="Activity" onClose={onClose}>
      {error ? (
        <p className="errors" role="alert">
          {error}
        </p>
      ) : null}
      {next !== undefined && items.length === 0 ? <p className="muted">No activity yet.</p> : null}
      <ol className="activity-list">
        {items.map((item) => (
          <li key={item.version} className="activity-item">
            <p className="activity-summary">{item.summary}</p>
            <p className="small muted">
              {authorLabel(item.by)} · <RelativeTime at={item.at} />
            </p>
          </li>
        ))}
      </ol>
      <div ref={endRef}>
        {next ? (
          <button type="button" className="button small" onClick={() => void load(next)}>
            Load older activity
          </button>
        ) : null}
      </div>
    </SidePanel>
  )
}
