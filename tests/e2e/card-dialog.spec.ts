import { expect, test, type Locator, type Page } from '@playwright/test'
import { buildSmallMap, card, cardId, cardsOf, settle } from './board-helpers'
import { openSeededBoard, type MapShape } from './map-fixture'

/** Six columns of cards: the cards sit under the dialogs, and the MVP row fits on the screen. */
const FULL_MAP: MapShape = {
  goals: { Shop: ['Browse', 'Compare', 'Order', 'Pay'], Help: ['Chat', 'Call'] },
  releases: ['MVP', 'Later'],
  features: ['Browse', 'Compare', 'Order', 'Pay', 'Chat', 'Call'].flatMap((activity) =>
    [1, 2].map((n) => ({ title: `${activity} ${n}`, cell: ['MVP', activity] as [string, string] })),
  ),
  persona: false,
}

/** The text a sighted reader sees (leaves out what only a screen reader reads). */
const visibleText = (locator: Locator) =>
  locator.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement
    copy.querySelectorAll('.sr-only').forEach((n) => n.remove())
    return copy.textContent!.replace(/\s+/g, ' ').trim()
  })

test('a double click on Create makes one card and opens nothing behind the dialog', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!, '', FULL_MAP)
  const boardUrl = page.url()
  // A + on screen: focus goes back to it after the dialog, and the board stays where it is.
  await page.getByRole('button', { name: 'Add feature to MVP / Pay' }).click()
  const dialog = page.getByRole('dialog', { name: 'New feature in MVP › Pay' })
  await dialog.getByLabel('Title').fill('Wallet')
  const create = dialog.getByRole('button', { name: 'Create' })
  // There is a card under the button: the second click would land on it once the dialog is gone.
  // (By its place: while the dialog is open the board is inert, so not hit by a point.)
  const box = (await create.boundingBox())!
  const under = await page.evaluate(
    ([x, y]) =>
      [...document.querySelectorAll('a.card-tile')].some((el) => {
        const r = el.getBoundingClientRect()
        return r.left <= x && x <= r.right && r.top <= y && y <= r.bottom
      }),
    [box.x + box.width / 2, box.y + box.height / 2],
  )
  expect(under, 'a card lies under Create').toBe(true)

  await create.dblclick()
  await expect(dialog).toBeHidden()
  await expect(card(page, 'Feature', 'Wallet')).toHaveCount(1)
  await settle(page)
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(page.url()).toBe(boardUrl)
  await page.reload()
  await expect(card(page, 'Feature', 'Wallet')).toHaveCount(1)
})

test('the tab names the open card on its own URL, and follows its title', async ({ page, baseURL }) => {
  const map = await openSeededBoard(page, baseURL!, '', FULL_MAP)
  await expect(page).toHaveTitle('Coffee shop · Storymap')
  await card(page, 'Feature', 'Pay 2').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await expect(page).toHaveTitle('Pay 2 · Coffee shop · Storymap')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Pay by card')
  await dialog.getByLabel('Title').press('Enter')
  await expect(page).toHaveTitle('Pay by card · Coffee shop · Storymap')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page).toHaveTitle('Coffee shop · Storymap')
  // A permalink opened as a page.
  await page.goto(`${map.boardPath}/w/${map.ids.get('Shop')}`)
  await expect(page.getByRole('dialog', { name: 'Goal card' })).toBeVisible()
  await expect(page).toHaveTitle('Shop · Coffee shop · Storymap')
})

test('deleting a goal names the activities and features that go with it', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!, '', FULL_MAP)
  await card(page, 'Goal', 'Shop').click()
  const dialog = page.getByRole('dialog', { name: 'Goal card' })
  await dialog.getByRole('button', { name: 'Card menu' }).click()
  await dialog.getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = dialog.getByRole('alert')
  await expect(confirm).toContainText('Delete this goal?')
  await expect(confirm).toContainText(
    'With it go its 4 activities (‘Browse’, ‘Compare’, ‘Order’, ‘Pay’) and its 8 features (‘Browse 1’, ‘Browse 2’, ‘Compare 1’, ‘Compare 2’, ‘Order 1’ and 3 more). Deleted cards stay in the Trash for 30 days.',
  )
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
})

test('Enter saves a typed size; Escape then closes the dialog and keeps it', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!, '', FULL_MAP)
  const tile = card(page, 'Feature', 'Pay 2')
  await tile.click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  const size = dialog.getByLabel('Size')
  await size.fill('5')
  await size.press('Enter')
  await expect(tile.getByTitle('Size')).toHaveAttribute('data-text', '5')
  await expect(size).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(tile.getByTitle('Size')).toHaveAttribute('data-text', '5')
  await settle(page)
  await page.reload()
  await expect(card(page, 'Feature', 'Pay 2').getByTitle('Size')).toHaveAttribute('data-text', '5')
  // One change, one step: Activity has one size line.
  await page.getByRole('button', { name: 'Activity', exact: true }).click()
  const activity = page.getByRole('complementary', { name: 'Activity' })
  await expect(activity.getByText(/^Set the size of feature/)).toHaveText([
    "Set the size of feature 'Pay 2' to 5",
  ])
})

test('the card dialog: place, title, description, then annotations; description headings under the title', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!, '', {
    goals: { Shop: ['Browse', 'Pay'] },
    releases: ['MVP'],
    features: [
      {
        title: 'Café menu',
        cell: ['MVP', 'Browse'],
        description: '# Drinks\n\nCoffee and tea.\n\n## Prices\n\nIn euros.',
        annotations: 'RISKY',
      },
    ],
    persona: false,
  })
  await card(page, 'Feature', 'Café menu').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  const place = dialog.locator('.card-place')
  const title = dialog.getByRole('heading', { name: 'Café menu' })
  const description = dialog.getByText('Coffee and tea.')
  const annotations = dialog.getByText('Annotations: Risky')
  expect(await visibleText(place)).toBe('MVP › Shop › Browse')
  await expect(place).toHaveText(/Release MVP.*Goal Shop.*Activity Browse/)

  // Top to bottom, and in that order for a screen reader too (the page order).
  const tops = []
  for (const part of [place, title, description, annotations]) tops.push((await part.boundingBox())!.y)
  expect(tops).toEqual([...tops].sort((a, b) => a - b))
  const inOrder = await dialog.evaluate((root) => {
    const nodes = ['.card-place', '.dialog-title', '.description', '.annotation-menu'].map((s) =>
      root.querySelector(s)!,
    )
    return nodes.every(
      (n, i) => i === 0 || nodes[i - 1].compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING,
    )
  })
  expect(inOrder).toBe(true)

  // The description's headings are smaller than the card's title and rank below it.
  const fontSize = (locator: Locator) => locator.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
  const titleSize = await fontSize(title)
  for (const heading of ['Drinks', 'Prices']) {
    const h = dialog.getByRole('heading', { name: heading })
    expect(await fontSize(h), heading).toBeLessThan(titleSize)
  }
  await expect(dialog.getByRole('heading', { name: 'Drinks', level: 3 })).toBeVisible()
  await expect(dialog.getByRole('heading', { name: 'Prices', level: 4 })).toBeVisible()

  // An activity's place is its goal; a goal has none.
  await page.keyboard.press('Escape')
  await card(page, 'Activity', 'Pay').click()
  const activity = page.getByRole('dialog', { name: 'Activity card' })
  await expect(activity.getByRole('heading', { name: 'Pay' })).toBeVisible()
  expect(await visibleText(activity.locator('.card-place'))).toBe('Shop')
  await page.keyboard.press('Escape')
  await card(page, 'Goal', 'Shop').click()
  const goal = page.getByRole('dialog', { name: 'Goal card' })
  await expect(goal.getByRole('heading', { name: 'Shop' })).toBeVisible()
  await expect(goal.locator('.card-place')).toHaveCount(0)
})

/** Goal Shop: activities Search and Pay; releases MVP and Later (SMALL_MAP): MVP / Search holds Find by name, Filters. */
const cellCards = (page: Page, name: string) =>
  cardsOf(page.getByRole('group', { name, exact: true }), 'Feature')

test('focus after the dialog’s actions: the title after a save, a card beside one closed or deleted, with Undo said', async ({
  page,
}) => {
  await buildSmallMap(page)
  await card(page, 'Feature', 'Find by name').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  // The board behind the dialog is inert: nothing there takes the focus or is read out.
  const inert = (name: string) => card(page, 'Feature', name).evaluate((el) => el.closest('[inert]') !== null)
  await expect(dialog).toBeVisible()
  await expect.poll(() => inert('Filters')).toBe(true)
  expect(
    await card(page, 'Feature', 'Filters').evaluate((el) => (el.focus(), document.activeElement === el)),
  ).toBe(false)

  // Saving the title with Enter, or leaving it with Escape, gives the focus back to the title.
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Find by title')
  await dialog.getByLabel('Title').press('Enter')
  await expect(dialog.getByRole('button', { name: 'Find by title. Edit title' })).toBeFocused()
  await page.keyboard.press('Enter')
  await page.keyboard.press('Escape')
  await expect(dialog.getByRole('button', { name: 'Find by title. Edit title' })).toBeFocused()

  // Closing the card: the dialog goes, the card with it (closed cards are hidden), the focus goes
  // to the card after it in its cell, and the board's live region says so, with Undo.
  await dialog.getByRole('button', { name: 'Mark card as Closed' }).click()
  await expect(dialog).toBeHidden()
  await expect(card(page, 'Feature', 'Filters')).toBeFocused()
  expect(await inert('Filters')).toBe(false)
  const toast = page.getByRole('status').filter({ hasText: "Closed 'Find by title'" })
  await expect(toast).toHaveText("Closed 'Find by title' · Undo")
  await settle(page)
  await toast.getByRole('button', { name: 'Undo' }).click()
  await expect(card(page, 'Feature', 'Find by title')).toBeVisible()
  await expect(toast).toBeHidden()

  // Deleting the last card of a cell: the focus goes to the one before it.
  await card(page, 'Feature', 'Filters').click()
  await dialog.getByRole('button', { name: 'Card menu' }).click()
  await dialog.getByRole('menuitem', { name: 'Delete' }).click()
  await dialog.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(dialog).toBeHidden()
  await expect(card(page, 'Feature', 'Find by title')).toBeFocused()
  await expect(page.getByRole('status').filter({ hasText: "Deleted 'Filters'" })).toBeVisible()

  // With closed cards shown, a closed card stays, and so does the focus on it.
  await page.getByLabel('Show closed').check()
  await card(page, 'Feature', 'Card payment').focus()
  await page.keyboard.press('Enter')
  await dialog.getByRole('button', { name: 'Mark card as Closed' }).click()
  await expect(dialog).toBeHidden()
  await expect(card(page, 'Feature', 'Card payment')).toBeFocused()
})

test('the colours are one radio group; Watch is one toggle', async ({ page }) => {
  await buildSmallMap(page)
  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  const colours = dialog.getByRole('group', { name: 'Color' })
  await expect(colours.getByRole('radio')).toHaveCount(12)
  await expect(colours.getByRole('radio', { name: 'No color' })).toBeChecked()
  // One Tab stop: the arrows choose, and Tab leaves the group for the next field.
  await colours.getByRole('radio', { name: 'No color' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(colours.getByRole('radio', { name: 'White' })).toBeChecked()
  await expect(colours.getByRole('radio', { name: 'White' })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(colours.getByRole('radio', { name: 'Grey' })).toBeChecked()
  await page.keyboard.press('Tab')
  await expect(dialog.getByLabel('Size')).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(colours.getByRole('radio', { name: 'Grey' })).toBeFocused()
  await settle(page)
  await page.keyboard.press('Escape')
  await expect(card(page, 'Feature', 'Filters').locator('.card-color')).toHaveCSS(
    'background-color',
    'rgb(173, 181, 189)',
  )

  // The creator watches the card: `Watch`, pressed (never `Unwatch`).
  await card(page, 'Feature', 'Filters').click()
  const watch = dialog.getByRole('button', { name: 'Watch', exact: true })
  await expect(watch).toHaveAttribute('aria-pressed', 'true')
  await watch.click()
  await expect(watch).toHaveAttribute('aria-pressed', 'false')
})

test('Move to… takes a feature to another release and activity without dragging', async ({ page }) => {
  await buildSmallMap(page)
  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  const moveTo = dialog.getByRole('button', { name: 'Move to…' })
  await moveTo.click()
  const form = dialog.getByRole('form', { name: 'Move to' })
  await expect(form.getByLabel('Release')).toBeFocused()
  await expect(form.getByLabel('Release')).toHaveValue(await cardId(card(page, 'Release', 'MVP')))
  await form.getByLabel('Release').selectOption({ label: 'Later' })
  await form.getByLabel('Activity').selectOption({ label: 'Pay' })
  await form.getByRole('button', { name: 'Move' }).click()
  await expect(form).toBeHidden()
  await expect(moveTo).toBeFocused()
  expect(await dialog.locator('.card-place').evaluate((el) => el.textContent)).toMatch(/Later.*Shop.*Pay/)
  await expect(page.getByRole('status').filter({ hasText: "Moved 'Filters' to Later / Pay" })).toHaveText(
    "Moved 'Filters' to Later / Pay · Undo",
  )
  await page.keyboard.press('Escape')
  await expect(cellCards(page, 'Later / Pay')).toHaveText(['Filters'])
  await expect(cellCards(page, 'MVP / Search')).toHaveText(['Find by name'])
  await settle(page)
  await page.reload()
  await expect(cellCards(page, 'Later / Pay')).toHaveText(['Filters'])
})
