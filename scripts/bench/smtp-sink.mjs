// A local SMTP server the capacity bench points the app's SMTP_URL at: it takes every message,
// keeps none, and hands each invitation's code to the bench (IPC `{invitation: {to, code}}`), so
// team members join through the invitation e-mail as people do. Its own process, so the
// notification mails of the workload cost the load generator nothing. Started by capacity-teams.mjs.
import { SMTPServer } from 'smtp-server'

let received = 0
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  logger: false,
  size: 1024 * 1024,
  onData(stream, session, callback) {
    const chunks = []
    stream.on('data', (chunk) => chunks.push(chunk))
    stream.on('end', () => {
      received += 1
      // Undo quoted-printable soft line breaks before looking for the link.
      const text = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/=\r?\n/g, '')
      const code = /\/account\/invitation\/([A-Za-z0-9_-]+)/.exec(text)?.[1]
      const to = session.envelope.rcptTo[0]?.address
      if (code && to) process.send?.({ invitation: { to: to.toLowerCase(), code } })
      callback()
    })
  },
})
server.listen(0, '127.0.0.1', () => process.send?.({ listening: server.server.address().port }))
process.on('message', (m) => {
  if (m === 'count') process.send?.({ received })
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
