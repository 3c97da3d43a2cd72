import type { Transporter } from 'nodemailer'
import { getEnv } from './env.server'
import { logger } from './logger.server'
import { singleton } from './singleton.server'

export type Mail = {
  to: string
  subject: string
  text: string
  html: string
  replyTo?: string
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on notifications). */
  headers?: Record<string, string>
}

type Carrier = (mail: Mail & { from: string }) => Promise<void>

/** Where messages go when the server has its side thread (server/side-thread.ts); shared by both bundles. */
const carrier = singleton('mail-carrier', () => ({ send: undefined as Carrier | undefined }))

/**
 * The server hands messages to its side thread; without one (development, or the thread gone)
 * they are sent from here.
 */
export function setMailCarrier(send: Carrier | undefined) {
  carrier.send = send
}

/** The SMTP transport, made with the first message: nodemailer is loaded only then (ADR 23). */
function transport(url: string): Promise<Transporter> {
  return singleton('mail-transport', async () => {
    const { default: nodemailer } = await import('nodemailer')
    return nodemailer.createTransport(url)
  })
}

/** Whether e-mail leaves this server (SMTP_URL set); without it each message only goes to the log. */
export function mailConfigured(): boolean {
  return !!getEnv().SMTP_URL
}

/**
 * Sends one message over SMTP_URL; without it the message is written to the log. Never
 * throws: a failure is logged and reported as false, so the caller's action still stands.
 */
export async function sendMail(mail: Mail): Promise<boolean> {
  const url = getEnv().SMTP_URL
  if (!url) {
    logger.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'e-mail (SMTP_URL unset)')
    return true
  }
  try {
    const message = { from: getEnv().MAIL_FROM, ...mail }
    if (carrier.send) await carrier.send(message)
    else await (await transport(url)).sendMail(message)
    return true
  } catch (err) {
    logger.error({ err, mail: { to: mail.to, subject: mail.subject } }, 'e-mail could not be sent')
    return false
  }
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )
}

/** An absolute link under BASE_URL. */
export function appLink(path: string): string {
  return getEnv().BASE_URL + path
}
