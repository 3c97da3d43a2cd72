import { expect, test, type Page } from '@playwright/test'
import { signUp } from '../support/client'
import { addMember } from '../support/board'
import { FakeOpenAI } from '../support/fake-openai'
import { startServer, type RunningServer } from '../support/server'
import { card, cardsOf, settle, SMALL_MAP } from './board-helpers'
import { expectNoSeriousAxeFindings } from './helpers'
import { boardReady, seedMap, signIn } from './map-fixture'

/**
 * The assistant (CONTRACT §16) against the fake OpenAI-compatible model: its own server, with
 * AI_BASE_URL and AI_MODEL pointing at the fake, shared by this file's tests.
 */
let model: FakeOpenAI
let server: RunningServer
test.beforeAll(async () => {
  model = await new FakeOpenAI().start()
  server = await startServer({ AI_BASE_URL: model.url, AI_MODEL: 'storymap-test-model' })
})
test.afterAll(async () => {
  await server?.stop()
  await model?.stop()
})
test.beforeEach(() => model.reset())

async function openSmallMap(page: Page) {
  const map = await seedMap(server.url, SMALL_MAP)
  await signIn(page.context(), map, server.url)
  await page.goto(`${server.url}${map.boardPath}`)
  await expect(card(page, 'Feature', 'Card payment')).toBeVisible()
  await boardReady(page)
  return map
}

test('Split into smaller features: untick one, Add puts the others after the feature in its cell', async ({
  page,
}) => {
  await openSmallMap(page)
  await card(page, 'Feature', 'Find by name').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  const suggest = dialog.getByRole('button', { name: 'Suggest' })
  await suggest.click()
  await expect(dialog.getByRole('menuitem', { name: 'Split into smaller features' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(dialog.getByRole('menuitem', { name: 'Acceptance criteria' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(suggest).toBeFocused()
  await expect(dialog).toBeVisible()
  await suggest.click()
  await dialog.getByRole('menuitem', { name: 'Split into smaller features' }).click()
  const result = dialog.getByRole('group', { name: 'Smaller features' })
  await expect(result.getByRole('heading', { name: 'Smaller features' })).toBeFocused()
  const boxes = result.getByRole('checkbox')
  const count = await boxes.count()
  expect(count).toBeGreaterThanOrEqual(3)
  expect(count).toBeLessThanOrEqual(6)
  for (let i = 0; i < count; i++) await expect(boxes.nth(i)).toBeChecked()
  const titles = await result.locator('label').allTextContents()
  await expectNoSeriousAxeFindings(page, '[role="dialog"]')
  await boxes.nth(1).uncheck()
  await result.getByRole('button', { name: 'Add' }).click()
  await expect(dialog).toBeHidden()
  const added = titles.filter((_, i) => i !== 1)
  const cell = page.locator('[data-cell]').filter({ has: card(page, 'Feature', 'Find by name') })
  await expect(cardsOf(cell, 'Feature')).toHaveText(
    ['Find by name', ...added, 'Filters'].map((t) => new RegExp(t)),
  )
  await expect(card(page, 'Feature', added[0])).toBeFocused()
  await expect(card(page, 'Feature', titles[1])).toHaveCount(0)
  await settle(page)
  expect(model.chats).toHaveLength(1)
})

test('Acceptance criteria: shown first, Apply appends them to the description as a checklist', async ({
  page,
}) => {
  await openSmallMap(page)
  await card(page, 'Feature', 'Card payment').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await dialog.getByRole('button', { name: 'Suggest' }).click()
  await dialog.getByRole('menuitem', { name: 'Acceptance criteria' }).click()
  const result = dialog.getByRole('group', { name: 'Acceptance criteria' })
  await expect(result.getByRole('heading', { name: 'Acceptance criteria' })).toBeFocused()
  const criteria = await result.getByRole('listitem').allTextContents()
  expect(criteria.length).toBeGreaterThan(0)
  await result.getByRole('button', { name: 'Apply' }).click()
  await expect(result).toBeHidden()
  await expect(dialog.getByRole('button', { name: 'Suggest' })).toBeFocused()
  await expect(dialog.getByRole('heading', { name: 'Acceptance criteria' })).toBeVisible()
  for (const c of criteria) await expect(dialog.getByText(c)).toBeVisible()
  await settle(page)
})

test('a failure shows the server message; the board stays usable', async ({ page }) => {
  await openSmallMap(page)
  model.failWith(401)
  await card(page, 'Feature', 'Card payment').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await dialog.getByRole('button', { name: 'Suggest' }).click()
  await dialog.getByRole('menuitem', { name: 'Acceptance criteria' }).click()
  await expect(dialog.getByRole('alert')).toContainText(/assistant/i)
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  await card(page, 'Feature', 'Filters').click()
  await expect(page.getByRole('dialog', { name: 'Feature card' })).toBeVisible()
})

test('a viewer sees no Suggest', async ({ browser }) => {
  const map = await seedMap(server.url, SMALL_MAP)
  const viewer = await signUp(server.url)
  addMember(server.dbPath, map.owner.workspaceId, viewer.account.id, 'VIEWER')
  const context = await browser.newContext()
  await context.addCookies(
    [...viewer.client.cookies].map(([name, value]) => ({ name, value, url: server.url })),
  )
  const page = await context.newPage()
  await page.goto(`${server.url}${map.boardPath}`)
  await card(page, 'Feature', 'Card payment').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await expect(dialog.getByText('Created')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Suggest' })).toHaveCount(0)
  await context.close()
})

async function ownerOnProjects(page: Page) {
  const owner = await signUp(server.url)
  await page
    .context()
    .addCookies([...owner.client.cookies].map(([name, value]) => ({ name, value, url: server.url })))
  await page.goto(`${server.url}/${owner.workspaceName}?new=1`)
  return page.getByRole('dialog', { name: 'Create project' })
}

test('Draft a map: the preview streams in, Create makes the project in one change and opens it; Undo takes the map off', async ({
  page,
}) => {
  const dialog = await ownerOnProjects(page)
  await dialog.getByRole('button', { name: 'Draft a map' }).click()
  const description = dialog.getByLabel('Product description')
  await expect(description).toBeFocused()
  await description.fill('A bakery web shop where neighbours order bread for pickup and pay online')
  // The first answer fails the schema: the preview starts again, then the second one is used.
  model.answerBadly('off-schema', 1)
  model.slow({ chunkMs: 2 })
  await dialog.getByRole('button', { name: 'Draft', exact: true }).click()
  await expect(dialog.getByRole('status')).toContainText('The draft is ready: ', { timeout: 30_000 })
  const preview = dialog.getByRole('region')
  const goals = await preview.locator('.draft-goal').allTextContents()
  const title = await preview.getByRole('heading').textContent()
  expect(goals.length).toBeGreaterThan(0)
  await expect(dialog.getByRole('button', { name: 'Create' })).toBeFocused()
  await expectNoSeriousAxeFindings(page, '[role="dialog"]')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title!)
  for (const goal of goals) await expect(card(page, 'Goal', goal)).toBeVisible()
  await expect(page.locator('.story-map a.card-tile').first()).toBeFocused()
  // The map came with the project in one change: Undo takes it off the board, Redo brings it back.
  await settle(page)
  const history = page.getByRole('group', { name: 'History' })
  await expect(history.getByRole('button', { name: 'Undo' })).toHaveAttribute(
    'title',
    new RegExp(`^Undo: Created project '.+' from a draft`),
  )
  const features = await cardsOf(page, 'Feature').count()
  expect(features).toBeGreaterThan(0)
  await history.getByRole('button', { name: 'Undo' }).click()
  await expect(cardsOf(page, 'Goal')).toHaveCount(0)
  await expect(cardsOf(page, 'Feature')).toHaveCount(0)
  await history.getByRole('button', { name: 'Redo' }).click()
  await expect(cardsOf(page, 'Feature')).toHaveCount(features)
})

test('Draft a map: a failure shows the server message; Discard goes back to the form', async ({ page }) => {
  const dialog = await ownerOnProjects(page)
  const open = dialog.getByRole('button', { name: 'Draft a map' })
  await open.click()
  await dialog.getByRole('button', { name: 'Draft', exact: true }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Required.')
  await dialog.getByLabel('Product description').fill('A tool for a team to plan its week')
  model.failWith(401)
  await dialog.getByRole('button', { name: 'Draft', exact: true }).click()
  await expect(dialog.getByRole('alert')).toContainText(/assistant/i)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(open).toBeFocused()
  await expect(dialog.getByLabel('Title')).toBeVisible()
})
