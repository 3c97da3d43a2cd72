import { type Browser, type BrowserContext } from '@playwright/test'
import net from 'node:net'
import { linkIn, startMailbox, type ReceivedMail } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/** A port the OS reports free now, so BASE_URL (and every mailed link) can name the real address. */
async function freePort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as net.AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

/** Where this server sends contact-form messages. */
export const CONTACT_EMAIL = 'team@storymap.test'

/**
 * A dedicated app server for one test file, sending its mail over SMTP to an in-process
 * mailbox (the shared Playwright server has no SMTP_URL). Start it in `beforeAll`.
 */
export async function startMailServer() {
  const mailbox = await startMailbox()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let server: RunningServer
  try {
    server = await startServer({ PORT: String(port), BASE_URL: base, SMTP_URL: mailbox.url, CONTACT_EMAIL })
  } catch (error) {
    await mailbox.close()
    throw error
  }
  return {
    base,
    /** A browser context (one user) against this server. */
    context: (browser: Browser): Promise<BrowserContext> => browser.newContext({ baseURL: base }),
    /** Marks the mails received so far; `linkTo` then waits for a newer one. */
    mark: () => mailbox.mails.length,
    /** The next mail to `to` received after `since`. */
    mail: (to: string, since: number): Promise<ReceivedMail> => mailbox.waitFor(to, since),
    /** The absolute link `${base}/account/${kind}/…` in the next mail to `to` after `since`. */
    async linkTo(to: string, kind: 'invitation' | 'verify' | 'reset', since: number): Promise<string> {
      const mail: ReceivedMail = await mailbox.waitFor(to, since)
      return linkIn(mail, `${base}/account/${kind}/`)
    },
    async stop() {
      await server.stop()
      await mailbox.close()
    },
  }
}

export type MailServer = Awaited<ReturnType<typeof startMailServer>>
