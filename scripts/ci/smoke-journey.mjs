// The smoke's journey against a started server (BASE): waits for /healthz, signs up, creates a
// project through the API and opens its board page as a browser would. Exits 1 naming what failed.
import crypto from 'node:crypto'

const base = process.env.BASE
const fail = (what) => {
  console.error(`smoke failed: ${what}`)
  process.exit(1)
}
const deadline = Date.now() + 60_000
for (;;) {
  const ok = await fetch(`${base}/healthz`).then(
    (r) => r.ok,
    () => false,
  )
  if (ok) break
  if (Date.now() > deadline) fail('/healthz did not answer within 60 s')
  await new Promise((resolve) => setTimeout(resolve, 250))
}
const tag = crypto.randomBytes(4).toString('hex')
const signup = await fetch(`${base}/v1/users/signup`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({
    workspaceName: `smoke${tag}`,
    name: 'Smoke Test',
    email: `smoke${tag}@example.com`,
    password: 'correct-horse',
  }),
})
if (signup.status !== 200) fail(`sign-up answered ${signup.status}: ${await signup.text()}`)
const cookie = signup.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ')
const app = await (await fetch(`${base}/v1/account/app`, { headers: { Cookie: cookie } })).json()
const workspace = app.workspaces.find((w) => w.name === `smoke${tag}`)
if (!workspace) fail('the new workspace is not in /v1/account/app')
const projectId = crypto.randomUUID()
const created = await fetch(`${base}/v1/projects/${projectId}`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Cookie: cookie, Workspace: workspace.id, Origin: base },
  body: JSON.stringify({ title: 'Smoke map' }),
})
if (created.status !== 200) fail(`creating a project answered ${created.status}: ${await created.text()}`)
const board = await fetch(`${base}/${workspace.name}/projects/${projectId}`, {
  headers: { Cookie: cookie, Accept: 'text/html' },
})
const html = await board.text()
if (board.status !== 200 || !html.includes('Smoke map'))
  fail(`the board page answered ${board.status} without the project's title`)
console.log(`signed up, made a project and opened its board (${html.length} bytes)`)
