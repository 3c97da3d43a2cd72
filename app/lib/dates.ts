// Fixed locale and zone, so the server's HTML and the browser's hydration agree.
const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
})

/** "Nov 22, 2026" */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso))
}

/** "Nov 22, 2026, 14:05" (UTC) */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso))
}
