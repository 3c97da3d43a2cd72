import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { linkIn, startMailbox, type ReceivedMail } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

const BASE = 'http://storymap.test'
const WINDOW = 2 // seconds between two e-mails to one member about one card
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>

beforeAll(async () => {
  mailbox = await startMailbox()
  server = await startServer({
    SMTP_URL: mailbox.url,
    BASE_URL: BASE,
    NOTIFICATIONS_WINDOW_SECONDS: String(WINDOW),
  })
})
afterAll(async () => {
  await server?.stop()
  await mailbox?.close()
})

function memberIdOf(dbPath: string, workspaceId: string, accountId: string): string {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db
      .prepare('select id from members where workspace_id = ? and account_id = ?')
      .pluck()
      .get(workspaceId, accountId) as string
  } finally {
    db.close()
  }
}

/** The notification e-mails (not the sign-up ones) to `to` after `since` mails. */
const notices = (to: string, since = 0) =>
  mailbox.mails.slice(since).filter((m) => m.to.includes(to.toLowerCase()) && /'/.test(m.subject))

async function waitForNotices(to: string, count: number, since = 0, ms = 10_000): Promise<ReceivedMail[]> {
  const deadline = Date.now() + ms
  while (notices(to, since).length < count) {
    if (Date.now() > deadline)
      throw new Error(
        `expected ${count} notices to ${to}, got ${mailbox.mails
          .slice(since)
          .map((m) => `${m.to} ${m.subject}`)
          .join(' | ')}\n${server.output()}`,
      )
    await new Promise((r) => setTimeout(r, 50))
  }
  return notices(to, since)
}

/** A workspace with a map, its owner, and a second member (viewer by default) in it. */
async function team(level: 'VIEWER' | 'EDITOR' = 'VIEWER') {
  const owner = await signUp(server.url, { name: 'Olivia Owner' })
  const ids = await makeBoard(owner.client)
  const other = await signUp(server.url, { name: 'Mo Member' })
  addMember(server.dbPath, owner.workspaceId, other.account.id, level)
  const asOther = new Client(server.url, owner.workspaceId)
  asOther.cookies = other.client.cookies
  const otherMember = memberIdOf(server.dbPath, owner.workspaceId, other.account.id)
  return { owner, ids, other, asOther, otherMember }
}

const comment = (client: Client, featureId: string, post: string) =>
  client.post(`/v1/featurecomments/${uuid()}`, { featureId, post })

/**
 * Proof that nothing more is coming to each of `recipients` about `featureId`: a marker comment
 * (by a new member) mentioning them all, and, for each, the wait for the e-mail that carries it.
 * The worker sends a member's rows of one card in order, one e-mail at a time, so whatever an
 * earlier change put in the outbox for them has arrived before the marker, or is in its e-mail.
 * Answers each recipient's notices since `since` up to and including the marker's.
 */
async function afterMarker(
  workspaceId: string,
  featureId: string,
  recipients: { email: string; memberId: string }[],
  since: number,
): Promise<ReceivedMail[][]> {
  const marker = `marker-${uuid().slice(0, 8)}`
  const author = await signUp(server.url, { name: 'Mark Marker' })
  addMember(server.dbPath, workspaceId, author.account.id, 'EDITOR')
  const asAuthor = new Client(server.url, workspaceId)
  asAuthor.cookies = author.client.cookies
  const mentions = recipients.map((r) => `@[member:${r.memberId}]`).join(' ')
  expect((await comment(asAuthor, featureId, `${marker} ${mentions}`)).status).toBe(200)
  return Promise.all(
    recipients.map(async (r) => {
      const deadline = Date.now() + 15_000
      for (;;) {
        const mails = notices(r.email, since)
        const at = mails.findIndex((m) => m.text.includes(marker))
        if (at >= 0) return mails.slice(0, at + 1)
        if (Date.now() > deadline) throw new Error(`no marker e-mail for ${r.email}\n${server.output()}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }),
  )
}

describe('mention e-mails', () => {
  it('a mentioned viewer gets the comment with @Name and a link to the card; the author gets nothing', async () => {
    const { owner, ids, other, otherMember } = await team('VIEWER')
    const since = mailbox.mails.length
    const res = await comment(owner.client, ids.feature, `Please look @[member:${otherMember}] today`)
    expect(res.status).toBe(200)
    const [mail] = await waitForNotices(other.email, 1, since)
    expect(mail.subject).toBe("Olivia Owner mentioned you on 'Feature'")
    expect(mail.text).toContain('Please look @Mo Member today')
    expect(mail.text).toContain(`${BASE}/${owner.workspaceName}/projects/${ids.project}/f/${ids.feature}`)
    expect(mail.raw).toMatch(
      /^List-Unsubscribe:\s+<http:\/\/storymap\.test\/account\/notifications\/[A-Za-z0-9_-]+>/m,
    )
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m)
    expect(notices(owner.email, since)).toHaveLength(0)
  })
})

describe('editing a comment', () => {
  const edit = (client: Client, commentId: string, post: string) =>
    client.post(`/v1/featurecomments/${commentId}/post`, { description: post })

  /** Another member of the workspace, with their member id and a client of their own. */
  async function joiner(owner: Awaited<ReturnType<typeof team>>['owner'], name: string) {
    const who = await signUp(server.url, { name })
    addMember(server.dbPath, owner.workspaceId, who.account.id, 'VIEWER')
    return { ...who, memberId: memberIdOf(server.dbPath, owner.workspaceId, who.account.id) }
  }

  it('an edit that adds a mention e-mails the newly mentioned member once; watchers and the editor hear nothing of it', async () => {
    const { owner, ids, asOther, other, otherMember } = await team('EDITOR')
    const pat = await joiner(owner, 'Pat Person')
    const quiet = await joiner(owner, 'Quinn Quiet')
    const off = await quiet.client.post(
      '/account/settings',
      new URLSearchParams({ intent: 'notifications', watching: 'on' }),
    )
    expect(off.status).toBe(302) // Quinn turned mention e-mails off
    const id = uuid()
    expect(
      (
        await asOther.post(`/v1/featurecomments/${id}`, {
          featureId: ids.feature,
          post: 'Can someone check this?',
        })
      ).status,
    ).toBe(200)
    await waitForNotices(owner.email, 1) // the feature's creator watches it
    const since = mailbox.mails.length
    const res = await edit(
      asOther,
      id,
      `Can @[member:${pat.memberId}] check this? cc @[member:${quiet.memberId}] @[member:${otherMember}]`,
    )
    expect(res.status).toBe(200)
    const [mail] = await waitForNotices(pat.email, 1, since)
    expect(mail.subject).toBe("Mo Member mentioned you on 'Feature'")
    expect(mail.text).toContain('Can @Pat Person check this? cc @Quinn Quiet @Mo Member')
    expect(mail.text).toContain(`${BASE}/${owner.workspaceName}/projects/${ids.project}/f/${ids.feature}`)
    // Quinn's marker comes as a watch e-mail (Quinn's mentions are off).
    const ownerMember = memberIdOf(server.dbPath, owner.workspaceId, owner.account.id)
    const path = `/${owner.workspaceName}/projects/${ids.project}/watch/${ids.feature}`
    expect((await quiet.client.post(path, { watching: true })).status).toBe(200)
    const [toPat, toOwner, toOther, toQuiet] = await afterMarker(
      owner.workspaceId,
      ids.feature,
      [
        pat,
        { email: owner.email, memberId: ownerMember },
        { email: other.email, memberId: otherMember },
        quiet,
      ],
      since,
    )
    expect(toPat).toHaveLength(2) // the mention, then the marker alone
    expect(toPat[1].subject).toBe("Mark Marker mentioned you on 'Feature'")
    expect(toOwner).toHaveLength(1) // an edit is not a new comment: the marker comes alone
    expect(toOwner[0].text).not.toContain('check this')
    expect(toOther).toHaveLength(1) // not for one's own edit
    expect(toOther[0].text).not.toContain('check this')
    expect(toQuiet).toHaveLength(1) // mentions turned off
    expect(toQuiet[0].text).not.toContain('check this')
  })

  it('an edit that keeps the same mention sends nothing new', async () => {
    const { owner, ids, other, otherMember } = await team('VIEWER')
    const id = uuid()
    const since = mailbox.mails.length
    await owner.client.post(`/v1/featurecomments/${id}`, {
      featureId: ids.feature,
      post: `see @[member:${otherMember}]`,
    })
    await waitForNotices(other.email, 1, since)
    expect((await edit(owner.client, id, `see @[member:${otherMember}] tomorrow, please`)).status).toBe(200)
    const [toOther] = await afterMarker(
      owner.workspaceId,
      ids.feature,
      [{ email: other.email, memberId: otherMember }],
      since,
    )
    expect(toOther).toHaveLength(2) // the first mention, then the marker alone
    expect(toOther[1].text).not.toContain('tomorrow')
  })
})

describe('watch e-mails', () => {
  it('the feature creator watches it and hears of a comment; a commenter then watches too', async () => {
    const { owner, ids, asOther, other } = await team('EDITOR')
    const since = mailbox.mails.length
    expect((await comment(asOther, ids.feature, 'Looks good')).status).toBe(200)
    const [mail] = await waitForNotices(owner.email, 1, since)
    expect(mail.subject).toBe("Mo Member commented on 'Feature'")
    expect(mail.text).toContain('Looks good')
    expect(notices(other.email, since)).toHaveLength(0) // not for one's own comment

    // Mo commented, so Mo now watches: the owner's answer reaches Mo.
    expect((await comment(owner.client, ids.feature, 'Thanks')).status).toBe(200)
    const [back] = await waitForNotices(other.email, 1, since)
    expect(back.subject).toBe("Olivia Owner commented on 'Feature'")
  })

  it('Unwatch stops them, Watch brings them back', async () => {
    const { owner, ids, asOther } = await team('EDITOR')
    const path = `/${owner.workspaceName}/projects/${ids.project}/watch/${ids.feature}`
    expect((await owner.client.get(path)).json).toEqual({ watching: true })
    expect((await owner.client.post(path, { watching: false })).json).toEqual({ watching: false })
    expect((await owner.client.get(path)).json).toEqual({ watching: false })
    const since = mailbox.mails.length
    await comment(asOther, ids.feature, 'Nobody hears this')
    // Mo now watches (as a commenter); a mention of the owner would still go, a plain comment does not.
    const probe = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, probe.account.id, 'EDITOR')
    const probeMember = memberIdOf(server.dbPath, owner.workspaceId, probe.account.id)
    await comment(asOther, ids.feature, `ping @[member:${probeMember}]`)
    await waitForNotices(probe.email, 1, since)
    expect(notices(owner.email, since)).toHaveLength(0)
    expect((await owner.client.post(path, { watching: true })).json).toEqual({ watching: true })
  })
})

describe('batching', () => {
  it('the first e-mail goes at once; later comments within the window go together at its end', async () => {
    const { owner, ids, asOther } = await team('EDITOR')
    const since = mailbox.mails.length
    const started = Date.now()
    await comment(asOther, ids.feature, 'First note')
    const [first] = await waitForNotices(owner.email, 1, since)
    expect(first.text).toContain('First note')
    await comment(asOther, ids.feature, 'Second note')
    await comment(asOther, ids.feature, 'Third note')
    const mails = await waitForNotices(owner.email, 2, since)
    expect(Date.now() - started).toBeGreaterThanOrEqual(WINDOW * 1000 - 200)
    expect(mails[1].subject).toBe("2 new comments on 'Feature'")
    expect(mails[1].text).toContain('Second note')
    expect(mails[1].text).toContain('Third note')
    const ownerMember = memberIdOf(server.dbPath, owner.workspaceId, owner.account.id)
    const [toOwner] = await afterMarker(
      owner.workspaceId,
      ids.feature,
      [{ email: owner.email, memberId: ownerMember }],
      since,
    )
    expect(toOwner).toHaveLength(3) // nothing between the batch and the marker, which comes alone
    expect(toOwner[2].subject).toBe("Mark Marker mentioned you on 'Feature'")
    expect(toOwner[2].text).not.toContain('note')
  })
})

describe('settings and unsubscribe', () => {
  it('the switches in account settings are respected (a form without JavaScript)', async () => {
    const { owner, ids, other, asOther, otherMember } = await team('EDITOR')
    const page = await other.client.get('/account/settings')
    expect(page.text).toContain('Notifications')
    expect(page.text).toContain('E-mail me when I&#x27;m mentioned')
    expect(page.text).toContain('E-mail me about cards I watch')
    const saved = await other.client.post(
      '/account/settings',
      new URLSearchParams({ intent: 'notifications', watching: 'on' }),
    )
    expect(saved.status).toBe(302)
    const since = mailbox.mails.length
    await comment(owner.client, ids.feature, `hi @[member:${otherMember}]`) // mentions are off for Mo
    await comment(asOther, ids.feature, 'my own') // Mo watches now
    await waitForNotices(owner.email, 1, since)
    // Mo watches (commented), so the marker comes to Mo as a watch e-mail, alone.
    const [toOther] = await afterMarker(
      owner.workspaceId,
      ids.feature,
      [{ email: other.email, memberId: otherMember }],
      since,
    )
    expect(toOther).toHaveLength(1)
    expect(toOther[0].subject).toBe("Mark Marker commented on 'Feature'")
    expect(toOther[0].text).not.toContain('hi @')
  })

  it('the link works without a session: a page with one button, and the one-click POST', async () => {
    const { owner, ids, other, otherMember } = await team('VIEWER')
    const since = mailbox.mails.length
    await comment(owner.client, ids.feature, `see @[member:${otherMember}]`)
    const [mail] = await waitForNotices(other.email, 1, since)
    const link = linkIn(mail, `${BASE}/account/notifications/`)
    const path = link.slice(BASE.length)
    const anonymous = new Client(server.url)
    const page = await anonymous.get(path)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Unsubscribe')
    expect((await anonymous.get('/account/notifications/forged')).text).toContain('This link is invalid.')
    const oneClick = await anonymous.post(path, new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }))
    expect(oneClick.status).toBe(200)
    const settings = await other.client.get('/account/settings')
    expect(settings.text).toMatch(/<input type="checkbox" role="switch" name="mentions"\/>/)
    expect(settings.text).toMatch(/<input type="checkbox" role="switch" name="watching" checked=""\/>/)
  })
})

describe('the queue', () => {
  it('survives a restart: a held e-mail goes once the server is back', async () => {
    const mailbox2 = await startMailbox()
    const env = { SMTP_URL: mailbox2.url, BASE_URL: BASE, NOTIFICATIONS_WINDOW_SECONDS: '3' }
    let first = await startServer(env)
    try {
      const owner = await signUp(first.url, { name: 'Olivia Owner' })
      const ids = await makeBoard(owner.client)
      const other = await signUp(first.url, { name: 'Mo Member' })
      addMember(first.dbPath, owner.workspaceId, other.account.id, 'EDITOR')
      const asOther = new Client(first.url, owner.workspaceId)
      asOther.cookies = other.client.cookies
      const to = (m: ReceivedMail) => m.to.includes(owner.email.toLowerCase()) && /'/.test(m.subject)
      await asOther.post(`/v1/featurecomments/${uuid()}`, { featureId: ids.feature, post: 'Before' })
      const deadline = Date.now() + 10_000
      while (mailbox2.mails.filter(to).length < 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50))
      await asOther.post(`/v1/featurecomments/${uuid()}`, {
        featureId: ids.feature,
        post: 'Held over the restart',
      })
      await first.stop()
      first = await startServer(env, { dir: first.dir })
      const later = Date.now() + 10_000
      while (mailbox2.mails.filter(to).length < 2 && Date.now() < later)
        await new Promise((r) => setTimeout(r, 50))
      const mails = mailbox2.mails.filter(to)
      expect(mails).toHaveLength(2)
      expect(mails[1].text).toContain('Held over the restart')
    } finally {
      await first.stop()
      await mailbox2.close()
    }
  })
})
