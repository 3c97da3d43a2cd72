// Seeds the benchmark's story map through the public /v1 API, as a client would.
import crypto from 'node:crypto'

/**
 * The benchmark's maps by feature count: 20 goals × 5 activities, the releases down, the same
 * number of features in every cell (issue #15: 10,000 = 20 × 5 × 20 × 5). A tenth of the features
 * have a description and a tenth have a comment; each goal has a persona.
 */
export const MAP_SIZES = {
  1000: { goals: 20, activitiesPerGoal: 5, releases: 10, perCell: 1 },
  4000: { goals: 20, activitiesPerGoal: 5, releases: 20, perCell: 2 },
  10000: { goals: 20, activitiesPerGoal: 5, releases: 20, perCell: 5 },
}

export function mapShape(features) {
  const base = MAP_SIZES[features]
  if (!base) throw new Error(`map size ${features}: choose one of ${Object.keys(MAP_SIZES).join(', ')}`)
  return { ...base, features, comments: features / 10, described: features / 10 }
}

const uuid = () => crypto.randomUUID()

/** One signed-in API user: session cookie and workspace header on every call. */
export class ApiClient {
  constructor(baseUrl) {
    this.baseUrl = baseUrl
    this.cookie = ''
    this.workspaceId = ''
  }

  headers(extra = {}) {
    const headers = { ...extra }
    if (this.cookie) headers.Cookie = this.cookie
    if (this.workspaceId) headers.Workspace = this.workspaceId
    return headers
  }

  async call(method, path, body) {
    const init = {
      method,
      headers: this.headers(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    }
    if (body !== undefined) init.body = JSON.stringify(body)
    const res = await fetch(this.baseUrl + path, init)
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('storymap_session='))
    if (cookie) this.cookie = cookie.split(';')[0]
    const text = await res.text()
    if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return { json: text ? JSON.parse(text) : undefined, text, contentType: res.headers.get('content-type') }
  }

  /** Signs up a user with a workspace of their own; keeps the session and the workspace id. */
  async signUp() {
    const tag = Date.now().toString(36)
    const account = {
      workspaceName: `bench${tag}`,
      name: 'Bench User',
      email: `bench${tag}@example.com`,
      password: 'correct-horse',
    }
    await this.call('POST', '/v1/users/signup', account)
    const app = await this.call('GET', '/v1/account/app')
    this.workspaceId = app.json.workspaces.find((w) => w.name === account.workspaceName).id
    return account
  }
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function inPool(items, limit, task) {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]
      await task(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

const POOL = 8
const pad = (n) => String(n + 1).padStart(2, '0')

/**
 * Seeds a map of `shape` (mapShape). Creates are appended in parallel, so order within a list
 * follows arrival; the shape is fixed.
 */
export async function seedStoryMap(client, shape) {
  const projectId = uuid()
  await client.call('POST', `/v1/projects/${projectId}`, { title: 'Benchmark map' })
  const goals = Array.from({ length: shape.goals }, (_, g) => ({ id: uuid(), title: `Goal ${pad(g)}` }))
  const releases = Array.from({ length: shape.releases }, (_, r) => ({
    id: uuid(),
    title: `Release ${pad(r)}`,
  }))
  await inPool(goals, POOL, (g) =>
    client.call('POST', `/v1/workflows/${g.id}`, { projectId, title: g.title }),
  )
  await inPool(releases, POOL, (r) =>
    client.call('POST', `/v1/milestones/${r.id}`, { projectId, title: r.title }),
  )
  const activities = goals.flatMap((g, gi) =>
    Array.from({ length: shape.activitiesPerGoal }, (_, a) => ({
      id: uuid(),
      goal: g,
      title: `Activity ${pad(gi)}.${a + 1}`,
    })),
  )
  await inPool(activities, POOL, (a) =>
    client.call('POST', `/v1/subworkflows/${a.id}`, { workflowId: a.goal.id, title: a.title }),
  )
  const { perCell } = shape
  const features = []
  for (const release of releases)
    for (const activity of activities)
      for (let i = 0; i < perCell; i++)
        features.push({
          id: uuid(),
          release,
          activity,
          title: `As a shopper I can do task ${features.length + 1} of ${activity.title}`,
        })
  await inPool(features, POOL, (f) =>
    client.call('POST', `/v1/features/${f.id}`, {
      milestoneId: f.release.id,
      subWorkflowId: f.activity.id,
      title: f.title,
    }),
  )
  const description = 'Acceptance: the shopper sees the result at once. '.repeat(6).trim()
  const described = features.filter((_, i) => i % (features.length / shape.described) === 0)
  await inPool(described, POOL, (f) =>
    client.call('POST', `/v1/features/${f.id}/description`, { description }),
  )
  const commented = Array.from({ length: shape.comments }, (_, i) => features[(i * 37) % features.length])
  await inPool(commented, POOL, (f) =>
    client.call('POST', `/v1/featurecomments/${uuid()}`, {
      featureId: f.id,
      post: 'Looks right; check the edge cases first.',
    }),
  )
  await inPool(goals, POOL, (g) =>
    client.call('POST', `/v1/personas/${uuid()}`, {
      projectId,
      avatar: 'avatar01',
      name: `Persona of ${g.title}`,
      role: 'Shopper',
      description: '',
      workflowId: g.id,
      workflowPersonaId: uuid(),
    }),
  )
  return { projectId, goals, releases, activities, features }
}
