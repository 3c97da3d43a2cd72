import { formatDistanceToNow } from 'date-fns'
import { useEffect, useState } from 'react'
import { formatDateTime } from '~/lib/dates'

/** "2 minutes ago" (date-fns), kept current while shown; the exact time is its tooltip. */
export function RelativeTime({ at }: { at: string }) {
  const [, tick] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 30_000)
    return () => clearInterval(timer)
  }, [])
  const date = new Date(at)
  return (
    <time dateTime={at} title={`${formatDateTime(at)} UTC`}>
      {formatDistanceToNow(date, { addSuffix: true })}
    </time>
  )
}
