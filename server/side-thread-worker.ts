// The server's side thread (server/side-thread.ts): WAL checkpoints every second, and e-mail.
import Database from 'better-sqlite3'
import type { Transporter } from 'nodemailer'
import { parentPort, workerData } from 'node:worker_threads'
import type { OutgoingMail, SideThreadReply } from './side-thread'

const { file, everyMs, smtpUrl } = workerData as { file: string; everyMs: number; smtpUrl?: string }
const reply = (message: SideThreadReply) => parentPort?.postMessage(message)

const db = new Database(file)
db.pragma('busy_timeout = 5000')

// PASSIVE: never waits for readers or blocks the writer; it copies what no open read still needs,
// and the writer starts the log over once a pass has copied all of it.
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch (error) {
    reply({ failed: error instanceof Error ? error.message : String(error) })
  }
}, everyMs)

// nodemailer is loaded with the first message (ADR 23). Keys SMTP_URL sets itself
// (`?pool=false`, say) win over `pool`.
let transport: Promise<Transporter> | undefined
const mailer = () =>
  (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
    nodemailer.createTransport({ url: smtpUrl, pool: true }),
  ))

parentPort?.on('message', (message: { id: number; mail: OutgoingMail } | 'stop') => {
  if (message === 'stop') {
    clearInterval(timer)
    db.close()
    void transport?.then((t) => t.close())
    parentPort?.close()
    return
  }
  const { id, mail } = message
  mailer()
    .then((t) => t.sendMail(mail))
    .then(
      () => reply({ id }),
      (error: unknown) => reply({ id, error: error instanceof Error ? error.message : String(error) }),
    )
})
