import { expect, test } from '@playwright/test'
import { card, settle } from './board-helpers'
import { openSeededBoard, type MapShape } from './map-fixture'

/** Six columns of cards, so the middle of the screen, under the dialogs, is full of cards. */
const FULL_MAP: MapShape = {
  goals: { Shop: ['Browse', 'Compare', 'Order', 'Pay'], Help: ['Chat', 'Call'] },
  releases: ['MVP', 'Later'],
  features: ['Browse', 'Compare', 'Order', 'Pay', 'Chat', 'Call'].flatMap((activity) =>
    [1, 2, 3, 4].map((n) => ({ title: `${activity} ${n}`, cell: ['MVP', activity] as [string, string] })),
  ),
  persona: false,
}

test('a double click on Create makes one card and opens nothing behind the dialog', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!, '', FULL_MAP)
  const boardUrl = page.url()
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  const dialog = page.getByRole('dialog', { name: 'New card' })
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
