/**
 * Whether the board's member is still signed in, asked of the server (`GET /v1/account/app`):
 * a live stream that fails may have failed because the session ended (log-out in another tab, a
 * password reset elsewhere; CONTRACT §6 ends the stream within 5 s). `other-member`: signed in,
 * but not as the member the board was opened by.
 */
export type SessionCheck = 'signed-in' | 'signed-out' | 'other-member' | 'unknown'

export async function checkSession(memberId: string): Promise<SessionCheck> {
  try {
    const res = await fetch('/v1/account/app', { headers: { Accept: 'application/json' } })
    if (res.status === 401) return 'signed-out'
    if (!res.ok) return 'unknown'
    const body = (await res.json()) as { memberships?: { id: string }[] }
    return body.memberships?.some((m) => m.id === memberId) ? 'signed-in' : 'other-member'
  } catch {
    return 'unknown' // no answer: the network or the server is away, which the board says otherwise
  }
}
