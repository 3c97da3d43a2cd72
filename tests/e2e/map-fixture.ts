import type { BrowserContext, Page } from '@playwright/test'
import { signUp, type Client } from '../support/client'
import { uuid } from '../support/board'

/**
 * A story map seeded through the /v1 API (faster than clicking it together), and a browser
 * context signed in as its owner. The default shape (COFFEE_SHOP):
 *
 *             Shop                      Help (persona Pat)
 *             Browse        Pay         Support
 *   MVP       Café menu     Pay by card
 *             Search by name
 *   Later                   Refunds (closed)   Contact form
 */
export type SeededMap = Awaited<ReturnType<typeof seedMap>>

async function ok(client: Client, method: 'POST' | 'PUT', path: string, body?: unknown) {
  const res = await client.request(method, path, body)
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.json
}

type FeatureSpec = {
  title: string
  cell: [release: string, activity: string]
  description?: string
  color?: string
  estimate?: number
  annotations?: string
  closed?: boolean
  comment?: string
}

export const FEATURES: FeatureSpec[] = [
  {
    title: 'Café menu',
    cell: ['MVP', 'Browse'],
    description: 'Shows the drinks',
    color: 'RED',
    estimate: 3,
    annotations: 'RISKY',
  },
  { title: 'Search by name', cell: ['MVP', 'Browse'], estimate: 5 },
  { title: 'Pay by card', cell: ['MVP', 'Pay'], color: 'BLUE', estimate: 8, annotations: 'BLOCKED' },
  { title: 'Refunds', cell: ['Later', 'Pay'], estimate: 2, closed: true },
  {
    title: 'Contact form',
    cell: ['Later', 'Support'],
    estimate: 1,
    annotations: 'IDEA',
    comment: 'Needs a captcha',
  },
]

export type MapShape = {
  /** The project's title. */
  title?: string
  /** Goal title → its activities' titles, left to right. */
  goals: Record<string, string[]>
  releases: string[]
  features: FeatureSpec[]
  /** Whether the persona Pat goes on the last goal (yes unless false). */
  persona?: boolean
}

export const COFFEE_SHOP: MapShape = {
  goals: { Shop: ['Browse', 'Pay'], Help: ['Support'] },
  releases: ['MVP', 'Later'],
  features: FEATURES,
}

/** Seeds a project (`Coffee shop` unless the shape names it) for a new owner; the persona Pat goes on the last goal. */
export async function seedMap(baseURL: string, shape: MapShape = COFFEE_SHOP) {
  const owner = await signUp(baseURL)
  const { client } = owner
  const project = uuid()
  await ok(client, 'POST', `/v1/projects/${project}`, { title: shape.title ?? 'Coffee shop' })
  const ids = new Map<string, string>()
  const create = async (kind: string, title: string, body: Record<string, string>) => {
    const id = uuid()
    await ok(client, 'POST', `/v1/${kind}/${id}`, { ...body, title })
    ids.set(title, id)
    return id
  }
  let lastGoal = ''
  for (const [goal, activities] of Object.entries(shape.goals)) {
    lastGoal = await create('workflows', goal, { projectId: project })
    for (const activity of activities) await create('subworkflows', activity, { workflowId: lastGoal })
  }
  for (const release of shape.releases) await create('milestones', release, { projectId: project })
  for (const f of shape.features) {
    const id = await create('features', f.title, {
      milestoneId: ids.get(f.cell[0])!,
      subWorkflowId: ids.get(f.cell[1])!,
    })
    if (f.description)
      await ok(client, 'POST', `/v1/features/${id}/description`, { description: f.description })
    if (f.color) await ok(client, 'POST', `/v1/features/${id}/color`, { color: f.color })
    if (f.estimate) await ok(client, 'POST', `/v1/features/${id}/estimate`, { estimate: f.estimate })
    if (f.annotations)
      await ok(client, 'POST', `/v1/features/${id}/annotations`, { annotations: f.annotations })
    if (f.comment)
      await ok(client, 'POST', `/v1/featurecomments/${uuid()}`, { featureId: id, post: f.comment })
    if (f.closed) await ok(client, 'POST', `/v1/features/${id}/close`)
  }
  const persona = uuid()
  if (lastGoal && shape.persona !== false)
    await ok(client, 'POST', `/v1/personas/${persona}`, {
      projectId: project,
      avatar: 'avatar02',
      name: 'Pat',
      role: 'Support agent',
      description: '',
      workflowId: lastGoal,
      workflowPersonaId: uuid(),
    })
  const app = await client.get(`/v1/projects/${project}`)
  return {
    owner,
    projectId: project,
    ids,
    persona,
    boardPath: `/${owner.workspaceName}/projects/${project}`,
    linkPath: `/link/${app.json.project.externalLink}`,
  }
}

/** Gives the browser context the owner's session. */
export async function signIn(context: BrowserContext, map: SeededMap, baseURL: string) {
  await context.addCookies(
    [...map.owner.client.cookies].map(([name, value]) => ({ name, value, url: baseURL })),
  )
}

/** Seeds the map, signs the page's context in and opens the board (with `query`, e.g. `?q=pay`). */
export async function openSeededBoard(page: Page, baseURL: string, query = '', shape = COFFEE_SHOP) {
  const map = await seedMap(baseURL, shape)
  await signIn(page.context(), map, baseURL)
  await page.goto(`${map.boardPath}${query}`)
  await boardReady(page)
  return map
}

/** Waits until the board is hydrated: the keyboard hook has given one card the board's Tab stop. */
export async function boardReady(page: Page) {
  await page.locator('.story-map [tabindex="0"]').waitFor({ state: 'attached' })
}

/** The feature cards a user can see (left-out cards are hidden from sight and from screen readers). */
export const featureCards = (page: Page) => page.getByRole('link', { name: /\(feature(, closed)?\)$/ })

/** The titles of the feature cards shown, in page order. */
export async function shownFeatures(page: Page) {
  return featureCards(page).evaluateAll((tiles) =>
    tiles.map((t) => t.getAttribute('aria-label')!.replace(/ \(feature.*$/, '')),
  )
}
