import { expect, test, type Page } from '@playwright/test'
import { card, dragAnnouncer, keyboardDrag, newCard, settle } from './board-helpers'
import { boardReady, openSeededBoard, shownFeatures, type MapShape } from './map-fixture'

/**
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

const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))

/** Presses each key and expects the focus on the card or button named next. */
async function walk(page: Page, steps: [key: string, name: string][]) {
  for (const [key, name] of steps) {
    await page.keyboard.press(key)
    await expect.poll(() => focusedName(page), `${key} to ${name}`).toBe(name)
  }
}

test('arrow keys walk the board; Tab enters it once and leaves it once', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!, '', TWO_BY_TWO)
  await page.getByRole('button', { name: 'Filters', exact: true }).focus()
  await page.keyboard.press('Tab')
  await expect(card(page, 'Goal', 'Shop')).toBeFocused()
  await expect(card(page, 'Goal', 'Shop')).toHaveCSS('outline-style', 'solid')

  await walk(page, [
    ['ArrowDown', 'Browse (activity)'],
    ['ArrowRight', 'Pay (activity)'],
    ['ArrowDown', 'B1 (feature)'],
    ['ArrowLeft', 'A1 (feature)'],
    ['ArrowLeft', 'MVP (release)'],
    ['ArrowDown', 'Later (release)'],
    ['ArrowRight', 'A2 (feature)'],
    ['ArrowRight', 'B2 (feature)'],
    // Card to card: a filled cell's + is no stop.
    ['ArrowUp', 'B1 (feature)'],
    ['ArrowUp', 'Pay (activity)'],
    ['ArrowUp', 'Shop (goal)'],
  ])

  // The board is one Tab stop: the card focused last. Tab moves on past the cards.
  await walk(page, [['ArrowDown', 'Browse (activity)']])
  await page.keyboard.press('Tab')
  expect((await focusedName(page)) ?? '').not.toMatch(/\((goal|activity|release|feature)\)$/)
  await page.keyboard.press('Shift+Tab')
  await expect(card(page, 'Activity', 'Browse')).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(page.getByRole('button', { name: 'Filters', exact: true })).toBeFocused()
})

test('arrows go card to card; an empty cell is reached by its + and filled from there', async ({
  page,
  baseURL,
}) => {
  // MVP / Pay is empty.
  await openSeededBoard(page, baseURL!, '', {
    ...TWO_BY_TWO,
    features: TWO_BY_TWO.features.filter((f) => f.title !== 'B1'),
  })
  await card(page, 'Feature', 'A1').focus()
  await walk(page, [
    ['ArrowDown', 'A2 (feature)'],
    ['ArrowUp', 'A1 (feature)'],
    ['ArrowRight', 'Add feature to MVP / Pay'],
    ['ArrowDown', 'B2 (feature)'],
    ['ArrowUp', 'Add feature to MVP / Pay'],
  ])
  await page.keyboard.press('Enter')
  await newCard(page, 'B1')
  const mvp = page.getByRole('region', { name: 'Release MVP' })
  await expect(mvp.getByRole('link', { name: /\(feature\)$/ })).toHaveText(['A1', 'B1'])
  // The cell is filled now: its + is no stop any more, the arrows go by its card.
  await card(page, 'Feature', 'A1').focus()
  await walk(page, [
    ['ArrowRight', 'B1 (feature)'],
    ['ArrowDown', 'B2 (feature)'],
    ['ArrowUp', 'B1 (feature)'],
  ])
})

test('Enter opens the focused card and focus returns to it; n adds a card in its cell; ? lists the shortcuts', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!, '', TWO_BY_TWO)
  await card(page, 'Feature', 'B2').focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await expect(dialog.getByRole('heading', { name: 'B2' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(card(page, 'Feature', 'B2')).toBeFocused()

  await page.keyboard.press('n')
  await expect(page.getByRole('dialog', { name: /^New feature in / })).toBeVisible()
  await newCard(page, 'B3')
  // The new card has the focus (create-focus.spec.ts).
  await expect(card(page, 'Feature', 'B3')).toBeFocused()
  const later = page.getByRole('region', { name: 'Release Later' })
  await expect(later.getByRole('link', { name: /\(feature\)$/ })).toHaveText(['A2', 'B2', 'B3'])
  await walk(page, [
    ['ArrowUp', 'B2 (feature)'],
    ['ArrowDown', 'B3 (feature)'],
  ])

  await page.keyboard.press('?')
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(shortcuts).toBeVisible()
  for (const what of ['Search cards', 'Open the focused card', 'Undo', 'Redo', 'Show these shortcuts'])
    await expect(shortcuts.getByRole('cell', { name: what, exact: true })).toBeVisible()
  const keys = await shortcuts.locator('kbd').allTextContents()
  for (const key of ['/', 'Enter', 'n', '?', 'Escape', 'Space', 'Ctrl', 'Shift', 'Z', 'Y'])
    expect(keys).toContain(key)
  await page.keyboard.press('Escape')
  await expect(shortcuts).toBeHidden()
  await expect(card(page, 'Feature', 'B3')).toBeFocused()

  // `/` goes to the search field; there, typed keys are text, not shortcuts.
  await page.keyboard.press('/')
  const search = page.getByRole('searchbox', { name: 'Search cards' })
  await expect(search).toBeFocused()
  await page.keyboard.type('n?/')
  await expect(search).toHaveValue('n?/')
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('arrows skip the cards the search leaves out; keyboard drag still moves a card', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!, '?q=2', TWO_BY_TWO)
  expect(await shownFeatures(page)).toEqual(['A2', 'B2'])
  await card(page, 'Activity', 'Pay').focus()
  await walk(page, [
    ['ArrowDown', 'Add feature to MVP / Pay'],
    ['ArrowDown', 'B2 (feature)'],
    ['ArrowLeft', 'A2 (feature)'],
  ])

  await page.goto(new URL(page.url()).pathname)
  await boardReady(page)

  await boardReady(page)
  await keyboardDrag(page, card(page, 'Feature', 'A1'), ['ArrowRight'])
  await expect(
    page.getByRole('region', { name: 'Release MVP' }).getByRole('link', { name: /\(feature\)$/ }),
  ).toHaveText(['A1', 'B1'])
  await settle(page)
})

/** The feature cards of one cell, found by the cell's group name (`MVP / Browse`). */
const cellCards = (page: Page, name: string) =>
  page.getByRole('group', { name, exact: true }).getByRole('link', { name: /\(feature\)$/ })

/**
 * One key of a keyboard drag and what the board then says. An arrow the drag library dropped
 * while it re-measured (see keyboardDrag) is pressed again, as a person would.
 */
async function dragKey(page: Page, key: string, says: string) {
  if (!key.startsWith('Arrow')) {
    await page.keyboard.press(key)
    return expect(dragAnnouncer(page)).toHaveText(says)
  }
  await expect(async () => {
    await page.keyboard.press(key)
    await expect(dragAnnouncer(page)).toHaveText(says, { timeout: 3_000 })
  }).toPass({ intervals: [0], timeout: 10_000 })
}

test('a keyboard drag carries a feature on to the release below or above, saying where by titles; Escape puts it back', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!, '', TWO_BY_TWO)
  const a1 = card(page, 'Feature', 'A1')
  await a1.focus()
  await dragKey(page, 'Space', "Lifted 'A1' in MVP / Browse, position 1")
  // Past the last card of MVP / Browse: on to Later / Browse, first there.
  await dragKey(page, 'ArrowDown', "Moved 'A1' to Later / Browse, position 1")
  await expect(cellCards(page, 'Later / Browse')).toHaveText(['A1', 'A2'])
  await dragKey(page, 'ArrowDown', "Moved 'A1' to Later / Browse, position 2")
  await dragKey(page, 'Space', "Dropped 'A1' in Later / Browse, position 2")
  await expect(a1).toBeFocused()
  await expect(cellCards(page, 'Later / Browse')).toHaveText(['A2', 'A1'])
  await expect(cellCards(page, 'MVP / Browse')).toHaveCount(0)
  await settle(page)
  await page.reload()
  await boardReady(page)
  await expect(cellCards(page, 'Later / Browse')).toHaveText(['A2', 'A1'])

  // Up past the first card: on to the release above, last there. Escape puts it back, unsaved.
  await a1.focus()
  await dragKey(page, 'Space', "Lifted 'A1' in Later / Browse, position 2")
  await dragKey(page, 'ArrowUp', "Moved 'A1' to Later / Browse, position 1")
  await dragKey(page, 'ArrowUp', "Moved 'A1' to MVP / Browse, position 1")
  await expect(cellCards(page, 'MVP / Browse')).toHaveText(['A1'])
  await dragKey(page, 'Escape', "Move cancelled: 'A1' is back in Later / Browse, position 2")
  await expect(cellCards(page, 'Later / Browse')).toHaveText(['A2', 'A1'])
  await expect(cellCards(page, 'MVP / Browse')).toHaveCount(0)

  // Over two releases with one drag and one save: from Later up to MVP, then right into MVP / Pay.
  await a1.focus()
  await dragKey(page, 'Space', "Lifted 'A1' in Later / Browse, position 2")
  await dragKey(page, 'ArrowUp', "Moved 'A1' to Later / Browse, position 1")
  await dragKey(page, 'ArrowUp', "Moved 'A1' to MVP / Browse, position 1")
  await dragKey(page, 'ArrowRight', "Moved 'A1' to MVP / Pay, position 1")
  await dragKey(page, 'Space', "Dropped 'A1' in MVP / Pay, position 1")
  await expect(dragAnnouncer(page)).not.toContainText('cell:')
  await expect(cellCards(page, 'MVP / Pay')).toHaveText(['A1', 'B1'])
  await settle(page)
  await page.reload()
  await boardReady(page)
  await expect(cellCards(page, 'MVP / Pay')).toHaveText(['A1', 'B1'])
  await expect(cellCards(page, 'Later / Browse')).toHaveText(['A2'])
})
