import { SMTPServer } from 'smtp-server'

export type ReceivedMail = {
  to: string[]
  from: string
  raw: string
  subject: string
  text: string
  html: string
}

/** Undoes quoted-printable, which nodemailer uses for long lines. */
function decodeQuotedPrintable(body: string) {
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** The decoded body of the first MIME part of this content type. */
function part(raw: string, type: string): string {
  const start = raw.search(new RegExp(`Content-Type: ${type}`, 'i'))
  if (start < 0) return ''
  const rest = raw.slice(start)
  const headerEnd = rest.search(/\r?\n\r?\n/)
  const headers = rest.slice(0, headerEnd)
  let body = rest.slice(headerEnd).replace(/^\r?\n\r?\n/, '')
  const boundary = body.search(/\r?\n--/)
  if (boundary >= 0) body = body.slice(0, boundary)
  if (/quoted-printable/i.test(headers)) return decodeQuotedPrintable(body)
  if (/base64/i.test(headers)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  return body
}

/** An in-process SMTP server that keeps every message it receives; with `auth`, it requires these credentials. */
export async function startMailbox(options: { auth?: { user: string; pass: string } } = {}) {
  const mails: ReceivedMail[] = []
  const waiters: (() => void)[] = []
  let connections = 0
  const server = new SMTPServer({
    authOptional: !options.auth,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.auth?.user && auth.password === options.auth?.pass
      callback(
        ok ? null : new Error('Invalid username or password'),
        ok ? { user: auth.username } : undefined,
      )
    },
    logger: false,
    onConnect(_session, callback) {
      connections++
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? ''
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          raw,
          subject,
          text: part(raw, 'text/plain'),
          html: part(raw, 'text/html'),
        })
        waiters.splice(0).forEach((w) => w())
        callback()
      })
    },
  })
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port))
  })
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** SMTP connections opened to it so far. */
    connections: () => connections,
    /** Waits for the next message to `to` (received after `since` mails), up to 10 s. */
    async waitFor(to: string, since = 0): Promise<ReceivedMail> {
      const deadline = Date.now() + 10_000
      for (;;) {
        const found = mails.slice(since).find((m) => m.to.includes(to.toLowerCase()))
        if (found) return found
        if (Date.now() > deadline)
          throw new Error(`no mail to ${to}; got ${mails.map((m) => m.to.join()).join(', ')}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The first link in the text part that starts with `prefix` (e.g. `${base}/account/verify/`). */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const match = new RegExp(`${escaped}[A-Za-z0-9_-]+`).exec(mail.text)
  if (!match) throw new Error(`no link ${prefix} in:\n${mail.text}`)
  return match[0]
}
