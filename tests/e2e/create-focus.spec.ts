import { expect, test, type Page } from '@playwright/test'
import { uuid } from '../support/board'
import { card, createProject, settle } from './board-helpers'
import { signUpThroughForm } from './helpers'
import { openSeededBoard, type MapShape } from './map-fixture'

/**
 * After a create the keyboard carries on from the new card (issue 31): it has the focus, the
 * arrows move from it and `n` adds next to it. Cancelling gives the focus back to the opener.
 *
 *            Shop
 *            Browse   Pay
 *   MVP      A1       B1
 *   Later    A2       B2
 */
const TWO_BY_TWO: MapShape = {
  goals: { Shop: ['Browse', 'Pay'] },
  releases: ['MVP', 'Later'],
  features: [
    { title: 'A1', cell: ['MVP', 'Browse'] },
    { title: 'B1', cell: ['MVP', 'Pay'] },
    { title: 'A2', cell: ['Later', 'Browse'] },
    { title: 'B2', cell: ['Later', 'Pay'] },
  ],
}

const newCardDialog = (page: Page) =>
  page.getByRole('dialog', { name: /^New (goal|release|activity|feature)\b/ })

/** Types the title into the open `New …` dialog and presses Enter, as a keyboard user does. */
async function typeNewCard(page: Page, title: string) {
  await expect(newCardDialog(page).getByLabel('Title')).toBeFocused()
  await page.keyboard.type(title)
  await page.keyboard.press('Enter')
  await expect(newCardDialog(page)).toBeHidden()
}

/** Presses each key and expects the focus on the card or button named next. */
async function walk(page: Page, steps: [key: string, name: string][]) {
  const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))
  for (const [key, name] of steps) {
    await page.keyboard.press(key)
    await expect.poll(focusedName, `${key} to ${name}`).toBe(name)
  }
}

test('a new project opens with Add goal focused; the first goal takes the focus', async ({ page }) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  await createProject(page, 'Roadmap')
  const addGoal = page.getByRole('button', { name: 'Add goal' })
  await expect(addGoal).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(newCardDialog(page).getByLabel('Title')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(newCardDialog(page)).toBeHidden()
  await expect(addGoal).toBeFocused()

  await page.keyboard.press('Enter')
  await typeNewCard(page, 'Shop')
  await expect(card(page, 'Goal', 'Shop')).toBeFocused()
  await walk(page, [['ArrowDown', 'Add activity to goal Shop']])
  await page.keyboard.press('Enter')
  await typeNewCard(page, 'Browse')
  await expect(card(page, 'Activity', 'Browse')).toBeFocused()
  await walk(page, [['ArrowUp', 'Shop (goal)']])
})

test('a new goal has the focus; the arrows and n work from it', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!, '', TWO_BY_TWO)
  const addGoal = page.getByRole('button', { name: 'Add goal' })
  await addGoal.focus()
  await page.keyboard.press('Enter')
  await typeNewCard(page, 'Help')
  await expect(card(page, 'Goal', 'Help')).toBeFocused()
  await walk(page, [
    ['ArrowLeft', 'Shop (goal)'],
    ['ArrowRight', 'Help (goal)'],
  ])
  await page.keyboard.press('n')
  await typeNewCard(page, 'Learn')
  await expect(card(page, 'Goal', 'Learn')).toBeFocused()
  await walk(page, [['ArrowLeft', 'Help (goal)']])
})

test('a new activity has the focus; its empty cells are reached from it', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!, '', TWO_BY_TWO)
  await page.getByRole('button', { name: 'Add activity to goal Shop' }).click()
  await typeNewCard(page, 'Track')
  await expect(card(page, 'Activity', 'Track')).toBeFocused()
  await walk(page, [
    ['ArrowLeft', 'Pay (activity)'],
    ['ArrowRight', 'Track (activity)'],
    ['ArrowDown', 'Add feature to MVP / Track'],
    ['ArrowUp', 'Track (activity)'],
  ])
})

test('a new release has the focus, also before the server answers; the arrows reach its cells', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!, '', TWO_BY_TWO)
  const addRelease = page.getByRole('button', { name: 'Add release' })
  await addRelease.focus()
  await page.keyboard.press('Enter')
  await newCardDialog(page).getByRole('button', { name: 'Cancel' }).click()
  await expect(addRelease).toBeFocused()

  // The server holds its answer until the new card has been checked.
  let answer = () => {}
  const answered = new Promise<void>((resolve) => (answer = resolve))
  await page.route(
    (url) => url.pathname.endsWith('/commands'),
    async (route) => {
      await answered
      await route.fallback()
    },
  )
  await page.keyboard.press('Enter')
  await typeNewCard(page, 'Next')
  await expect(card(page, 'Release', 'Next')).toBeFocused()
  answer()
  await settle(page)
  await expect(card(page, 'Release', 'Next')).toBeFocused()
  await walk(page, [
    ['ArrowRight', 'Add feature to Next / Browse'],
    ['ArrowRight', 'Add feature to Next / Pay'],
    ['ArrowUp', 'B2 (feature)'],
    ['ArrowDown', 'Add feature to Next / Pay'],
  ])
  await page.keyboard.press('Enter')
  await typeNewCard(page, 'C2')
  await expect(card(page, 'Feature', 'C2')).toBeFocused()
})

test('a new feature has the focus and keeps it through live changes; n adds below it', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!, '', TWO_BY_TWO)
  await card(page, 'Feature', 'B2').focus()
  await page.keyboard.press('n')
  await expect(newCardDialog(page).getByLabel('Title')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(newCardDialog(page)).toBeHidden()
  await expect(card(page, 'Feature', 'B2')).toBeFocused()

  await page.keyboard.press('n')
  await typeNewCard(page, 'B3')
  await expect(card(page, 'Feature', 'B3')).toBeFocused()
  await settle(page)

  // Someone else's card arrives through the live stream: the focus stays.
  const res = await map.owner.client.request('POST', `/v1/features/${uuid()}`, {
    title: 'A3',
    milestoneId: map.ids.get('Later'),
    subWorkflowId: map.ids.get('Browse'),
  })
  expect(res.status).toBe(200)
  await expect(card(page, 'Feature', 'A3')).toBeVisible()
  await expect(card(page, 'Feature', 'B3')).toBeFocused()

  await walk(page, [['ArrowUp', 'B2 (feature)']])
  await walk(page, [['ArrowDown', 'B3 (feature)']])
  await page.keyboard.press('n')
  await typeNewCard(page, 'B4')
  await expect(card(page, 'Feature', 'B4')).toBeFocused()
  const later = page.getByRole('region', { name: 'Release Later' })
  await expect(later.getByRole('link', { name: /\(feature\)$/ })).toHaveText(['A2', 'A3', 'B2', 'B3', 'B4'])
  await walk(page, [['ArrowLeft', 'A3 (feature)']])
})
