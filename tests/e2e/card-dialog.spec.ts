import { expect, test, type Locator } from '@playwright/test'
import { card, settle } from './board-helpers'
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

test('a double click on Create makes one card and opens nothing behind the dialog', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!, '', FULL_MAP)
  const boardUrl = page.url()
  // A + on screen: focus goes back to it after the dialog, and the board stays where it is.
  await page.getByRole('button', { name: 'Add feature to MVP / Pay' }).click()
  const dialog = page.getByRole('dialog', { name: 'New feature in MVP › Pay' })
  await dialog.getByLabel('Title').fill('Wallet')
  const create = dialog.getByRole('button', { name: 'Create' })
  // There is a card under the button: the second click would land on it once the dialog is gone.
  const box = (await create.boundingBox())!
  const under = await page.evaluate(
    ([x, y]) => document.elementsFromPoint(x, y).some((el) => el.closest('a.card-tile') !== null),
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
  await expect(activity.getByText(/^Set the size of feature/)).toHaveText(["Set the size of feature 'Pay 2' to 5"])
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
    const nodes = ['.card-place', '.dialog-title', '.description', '.annotation-menu'].map((s) => root.querySelector(s)!)
    return nodes.every((n, i) => i === 0 || nodes[i - 1].compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING)
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
