import { expect, test, type Page } from '@playwright/test'
import { openSeededBoard } from './map-fixture'
import {
  buildSmallMap,
  card,
  cardsOf,
  dragAnnouncer,
  e2eDatabase,
  failBoardCommands,
  keyboardDrag,
  mouseDrag,
  newCard,
  settle,
} from './board-helpers'

const titles = (page: Page, kind: 'Goal' | 'Activity' | 'Release') => cardsOf(page, kind)
const featuresOf = (page: Page, release: string) =>
  cardsOf(page.getByRole('region', { name: `Release ${release}` }), 'Feature')

test('drag an activity to another goal (mouse) and a release up (keyboard); both persist', async ({
  page,
}) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Add goal' }).click()
  await newCard(page, 'Help')
  await settle(page)

  // "Search" (first under "Shop") goes to the empty goal "Help", and its features go with it.
  await mouseDrag(
    page,
    card(page, 'Activity', 'Search'),
    page.getByRole('button', { name: 'Add activity to goal Help' }),
    'goal Help',
  )
  await expect(titles(page, 'Activity')).toHaveText(['Pay', 'Search'])
  await expect(featuresOf(page, 'MVP')).toHaveText(['Card payment', 'Find by name', 'Filters'])
  // "Later" moves above "MVP" with the keyboard.
  await keyboardDrag(page, card(page, 'Release', 'Later'), ['ArrowUp'])
  await expect(titles(page, 'Release')).toHaveText(['Later', 'MVP'])
  await settle(page)

  await page.reload()
  await expect(titles(page, 'Goal')).toHaveText(['Shop', 'Help'])
  await expect(titles(page, 'Activity')).toHaveText(['Pay', 'Search'])
  await expect(featuresOf(page, 'MVP')).toHaveText(['Card payment', 'Find by name', 'Filters'])
  await expect(titles(page, 'Release')).toHaveText(['Later', 'MVP'])
  await expect(page.getByRole('button', { name: 'Add feature to MVP / Search' })).toBeVisible()
})

test('a feature dropped among hidden closed cards lands where it was dropped', async ({ page }) => {
  await buildSmallMap(page)
  // MVP / Search holds "Find by name" (closed, hidden) and "Filters".
  await card(page, 'Feature', 'Find by name').click()
  await page.getByRole('button', { name: 'Mark card as Closed' }).click()
  await expect(card(page, 'Feature', 'Find by name')).toBeHidden()
  await settle(page)

  // "Card payment" goes left into MVP / Search, then down below "Filters", the last visible card.
  await keyboardDrag(page, card(page, 'Feature', 'Card payment'), ['ArrowLeft', 'ArrowDown'])
  await expect(featuresOf(page, 'MVP')).toHaveText(['Filters', 'Card payment'])
  await settle(page)

  await page.reload()
  await expect(featuresOf(page, 'MVP')).toHaveText(['Filters', 'Card payment'])
  await page.getByLabel('Show closed').check()
  await expect(featuresOf(page, 'MVP')).toHaveText(['Find by name', 'Filters', 'Card payment'])
})

test('failed edits raise the alerts of SPEC §8', async ({ page }) => {
  const { user } = await buildSmallMap(page)
  await settle(page)
  const alert = (text: string) => page.getByRole('status').getByText(text, { exact: true })
  await failBoardCommands(page, ['feature.move', 'milestone.move', 'card.close'])

  await keyboardDrag(page, card(page, 'Feature', 'Filters'), ['ArrowUp'])
  await expect(alert('Something went wrong when moving feature.')).toBeVisible()
  await keyboardDrag(page, card(page, 'Release', 'Later'), ['ArrowUp'])
  await expect(alert('Something went wrong when moving milestone.')).toBeVisible()
  await card(page, 'Feature', 'Card payment').click()
  await page.getByRole('button', { name: 'Mark card as Closed' }).click()
  await expect(alert('Something went wrong.')).toBeVisible()
  await settle(page)
  await page.unrouteAll()

  // The server itself refuses a rename once the user has been demoted to VIEWER behind the page:
  // the page's live stream, which would tell it within seconds, is kept from reaching it.
  await page.route('**/v1/projects/*/events*', (route) => route.abort())
  await page.reload()
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
  const db = e2eDatabase()
  db.prepare(
    "update members set level = 'VIEWER' where account_id = (select id from accounts where email = ?) and workspace_id = (select id from workspaces where name = ?)",
  ).run(user.email, user.workspaceName)
  db.close()
  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Price filter')
  await dialog.getByLabel('Title').press('Enter')
  await expect(alert('Something went wrong when trying to rename.')).toBeVisible()
  await page.unrouteAll()
  await page.reload()
  await expect(page.getByText('VIEW ONLY')).toBeVisible()
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
})

test('a drop lands where it was made when a colleague moved a card out of the cell mid-drag', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!, '', {
    goals: { Shop: ['Search'] },
    releases: ['MVP', 'Later'],
    features: [
      { title: 'P1', cell: ['MVP', 'Search'] },
      { title: 'P2', cell: ['MVP', 'Search'] },
      { title: 'P3', cell: ['MVP', 'Search'] },
      { title: 'Category pages', cell: ['Later', 'Search'] },
    ],
    persona: false,
  })
  const mvp = () => cardsOf(page.getByRole('group', { name: 'MVP / Search', exact: true }), 'Feature')
  const announcer = dragAnnouncer(page)
  // Up from Later into MVP / Search (below P3), then once more: above P3.
  await card(page, 'Feature', 'Category pages').focus()
  await page.keyboard.press('Space')
  await expect(announcer).toHaveText("Lifted 'Category pages' in Later / Search, position 1")
  for (const says of [
    "Moved 'Category pages' to MVP / Search, position 4",
    "Moved 'Category pages' to MVP / Search, position 3",
  ]) {
    await expect(async () => {
      await page.keyboard.press('ArrowUp')
      await expect(announcer).toHaveText(says, { timeout: 3_000 })
    }).toPass({ intervals: [0], timeout: 10_000 })
  }
  // Meanwhile a colleague takes P1 out of the cell (the board shows it after the drop).
  const colleague = await map.owner.client.post(`/v1/features/${map.ids.get('P1')}/move`, {
    toSubWorkflowId: map.ids.get('Search'),
    toMilestoneId: map.ids.get('Later'),
    index: 0,
  })
  expect(colleague.status).toBe(200)
  await page.keyboard.press('Space')
  await expect(announcer).toHaveText("Dropped 'Category pages' in MVP / Search, position 3")
  await settle(page)
  await expect(mvp()).toHaveText(['P2', 'Category pages', 'P3'])
  await page.reload()
  await expect(mvp()).toHaveText(['P2', 'Category pages', 'P3'])
})
