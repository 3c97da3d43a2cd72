// The capacity bench's teams (issue 34): a workspace, five members who each signed up, a
// 300-card map. All through the public API as people do it: the owner signs up and imports the
// map as a storymap.csv (one request instead of 345 creates), invites four colleagues, whose
// codes arrive by e-mail at a local SMTP sink (smtp-sink.mjs), and each signs up with the code.
// Every member's password is hashed (argon2) once, at sign-up; nothing is written to SQLite behind
// the server's back. A member's session is the one their sign-up set.
import { spawn } from 'node:child_process'
import { stringify } from 'csv-stringify/sync'
import { ROOT } from './servers.mjs'

/** Issue 34's team: 10 goals × 3 activities × 5 releases × 2 features per cell = 300 cards. */
export const TEAM_SHAPE = { members: 5, goals: 10, activitiesPerGoal: 3, releases: 5, perCell: 2 }
export const TEAM_CARDS =
  TEAM_SHAPE.goals * TEAM_SHAPE.activitiesPerGoal * TEAM_SHAPE.releases * TEAM_SHAPE.perCell
const PASSWORD = 'correct-horse-battery'
const pad = (n) => String(n + 1).padStart(2, '0')

/** The team map as storymap.csv: a description on every tenth feature, sizes 0–12. */
export function teamCsv() {
  const { goals, activitiesPerGoal, releases, perCell } = TEAM_SHAPE
  const rows = []
  for (let r = 0; r < releases; r++)
    for (let g = 0; g < goals; g++)
      for (let a = 0; a < activitiesPerGoal; a++)
        for (let i = 0; i < perCell; i++) {
          const n = rows.length
          rows.push([
            `Release ${pad(r)}`,
            `Goal ${pad(g)}`,
            `Activity ${pad(g)}.${a + 1}`,
            `As a member I can do task ${n + 1}`,
            n % 10 === 0 ? 'Acceptance: the member sees the result at once.' : '',
            n % 13,
          ])
        }
  return stringify(rows, {
    header: true,
    columns: [
      'release_title',
      'goal_title',
      'activity_title',
      'feature_title',
      'feature_description',
      'feature_size',
    ],
  })
}

/** The SMTP sink as a child process: `code(email)` resolves with the invitation code mailed there. */
export function startSmtpSink() {
  const child = spawn(process.execPath, ['scripts/bench/smtp-sink.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const codes = new Map()
  const waiting = new Map()
  let counted = null
  const port = new Promise((resolve, reject) => {
    child.on('message', (m) => {
      if (m.listening) resolve(m.listening)
      if (m.received !== undefined) counted?.(m.received)
      if (!m.invitation) return
      const { to, code } = m.invitation
      const waiter = waiting.get(to)
      if (waiter) {
        waiting.delete(to)
        waiter(code)
      } else codes.set(to, code)
    })
    child.on('exit', (code) => reject(new Error(`the SMTP sink exited with ${code}`)))
  })
  return port.then((p) => ({
    url: `smtp://127.0.0.1:${p}`,
    code: (email) =>
      new Promise((resolve, reject) => {
        const known = codes.get(email)
        if (known) {
          codes.delete(email)
          return resolve(known)
        }
        const timer = setTimeout(
          () => reject(new Error(`no invitation mail for ${email} within 60 s`)),
          60_000,
        )
        waiting.set(email, (code) => (clearTimeout(timer), resolve(code)))
      }),
    received: () => new Promise((resolve) => ((counted = resolve), child.send('count'))),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.removeAllListeners('exit')
        child.once('exit', resolve)
        child.kill('SIGTERM')
      }),
  }))
}

/** One call as a browser would make it; the session cookie a sign-up sets is kept. */
async function call(
  baseUrl,
  method,
  path,
  { cookie, workspaceId, body, contentType = 'application/json' } = {},
) {
  const headers = { Origin: baseUrl }
  if (cookie) headers.Cookie = cookie
  if (workspaceId) headers.Workspace = workspaceId
  if (body !== undefined) headers['Content-Type'] = contentType
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : contentType === 'application/json' ? JSON.stringify(body) : body,
  })
  const text = await res.text()
  if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('storymap_session='))
  return { json: text ? JSON.parse(text) : undefined, cookie: setCookie?.split(';')[0] }
}

/**
 * Team `index` of a run tagged `tag`: the owner and four invited members (EDITORs), each with
 * their own session; the map's features with their cells and sizes.
 */
export async function seedTeam(baseUrl, sink, tag, index, csv) {
  const workspaceName = `team${tag}n${index + 1}`
  const person = (m) => ({
    name: `Member ${m + 1} of team ${index + 1}`,
    email: `t${index + 1}m${m + 1}.${tag}@example.com`,
  })
  const owner = person(0)
  const signedUp = await call(baseUrl, 'POST', '/v1/users/signup', {
    body: { ...owner, workspaceName, password: PASSWORD },
  })
  const app = await call(baseUrl, 'GET', '/v1/account/app', { cookie: signedUp.cookie })
  const workspaceId = app.json.workspaces.find((w) => w.name === workspaceName).id
  const ownerAuth = { cookie: signedUp.cookie, workspaceId }
  const imported = await call(
    baseUrl,
    'POST',
    `/v1/projects/import?title=${encodeURIComponent('Team map')}`,
    {
      ...ownerAuth,
      body: csv,
      contentType: 'text/csv',
    },
  )
  const projectId = imported.json.project.id
  const others = await Promise.all(
    Array.from({ length: TEAM_SHAPE.members - 1 }, async (_, i) => {
      const member = person(i + 1)
      await call(baseUrl, 'POST', '/v1/invites', {
        ...ownerAuth,
        body: { email: member.email, level: 'EDITOR' },
      })
      const invitation = await sink.code(member.email)
      const joined = await call(baseUrl, 'POST', '/v1/users/signup', {
        body: { ...member, password: PASSWORD, invitation },
      })
      return { ...member, cookie: joined.cookie }
    }),
  )
  const bundle = await call(baseUrl, 'GET', `/v1/projects/${projectId}`, ownerAuth)
  if (bundle.json.features.length !== TEAM_CARDS)
    throw new Error(`team ${index + 1}: ${bundle.json.features.length} features imported, not ${TEAM_CARDS}`)
  return {
    index,
    workspaceName,
    workspaceId,
    projectId,
    members: [{ ...owner, cookie: signedUp.cookie }, ...others],
    features: bundle.json.features.map((f) => ({
      id: f.id,
      subWorkflowId: f.subWorkflowId,
      milestoneId: f.milestoneId,
      estimate: f.estimate,
    })),
  }
}

/** Seeds teams `from`…`to - 1`, `parallel` at a time; returns them in order. */
export async function seedTeams(baseUrl, sink, tag, from, to, parallel = 4) {
  const csv = teamCsv()
  const teams = new Array(to - from)
  let next = from
  const worker = async () => {
    while (next < to) {
      const index = next++
      teams[index - from] = await seedTeam(baseUrl, sink, tag, index, csv)
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, to - from) }, worker))
  return teams
}
