import { createCookie, redirect } from 'react-router'
import crypto from 'node:crypto'
import type { FlashMessage, MessageType } from '~/ui/messages'
import { getEnv } from '~/lib/env.server'
import { singleton } from '~/lib/singleton.server'

/**
 * A one-time message carried from a page action to the next page in a short-lived signed
 * cookie; the root loader reads and clears it, and <Messages> shows it.
 */
function toastCookie() {
  return singleton('toast-cookie', () =>
    createCookie('storymap_message', {
      httpOnly: true,
      sameSite: 'lax',
      secure: getEnv().BASE_URL.startsWith('https://'),
      path: '/',
      secrets: [getEnv().SESSION_SECRET],
      maxAge: 60,
    }),
  )
}

export type MessageInput = { type: MessageType; message: string }

export function messageCookie(input: MessageInput): Promise<string> {
  return toastCookie().serialize({ id: crypto.randomUUID(), type: input.type, message: input.message })
}

/** Redirects and shows `message` on the next page. Extra Set-Cookie headers may be passed in `headers`. */
export async function redirectWithMessage(
  url: string,
  input: MessageInput,
  init: { headers?: [string, string][] } = {},
) {
  const headers = new Headers()
  for (const [name, value] of init.headers ?? []) headers.append(name, value)
  headers.append('Set-Cookie', await messageCookie(input))
  return redirect(url, { headers })
}

/** The pending message (if any) and the Set-Cookie header that clears it. */
export async function takeMessage(
  request: Request,
): Promise<{ message: FlashMessage | null; setCookie: string | null }> {
  const value = await toastCookie().parse(request.headers.get('Cookie'))
  if (!value || typeof value !== 'object') return { message: null, setCookie: null }
  const { id, type, message } = value as Record<string, unknown>
  const valid =
    typeof id === 'string' && (type === 'success' || type === 'fail') && typeof message === 'string'
  return {
    message: valid ? { id, type, message } : null,
    setCookie: await toastCookie().serialize('', { maxAge: 0, expires: new Date(0) }),
  }
}
