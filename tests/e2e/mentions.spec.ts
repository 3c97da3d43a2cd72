import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { addMember } from '../support/board'
import { signUp } from '../support/client'
import { card } from './board-helpers'
import { boardReady, seedMap, signIn, type SeededMap } from './map-fixture'
import { axeOn } from './helpers'

/** The stored text of the card's comments, newest first, as the API answers them. */
async function storedPosts(page: Page, map: SeededMap) {
  const response = await page.request.get(`/v1/projects/${map.projectId}`, {
    headers: { Workspace: map.owner.workspaceId },
  })
  expect(response.status()).toBe(200)
  const { featureComments } = (await response.json()) as {
    featureComments: { featureId: string; post: string; createdAt: string }[]
  }
  return featureComments
    .filter((c) => c.featureId === map.ids.get('Pay by card'))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((c) => c.post)
}

/** Mentions and watching (CONTRACT §12): `@` in the comment box picks a member with the keyboard. */
test('mention a member with the keyboard, and watch and unwatch a card with the Watch toggle', async ({
  page,
  baseURL,
}) => {
  const map = await seedMap(baseURL!)
  const zelda = await signUp(baseURL!, { name: 'Zelda Quinn' })
  addMember(
    path.join(process.env.E2E_DATA_DIR!, 'storymap.db'),
    map.owner.workspaceId,
    zelda.account.id,
    'VIEWER',
  )
  await signIn(page.context(), map, baseURL!)
  await page.goto(map.boardPath)
  await boardReady(page)
  await card(page, 'Feature', 'Pay by card').click()
  const dialog = page.getByRole('dialog')
  const box = dialog.getByRole('combobox', { name: 'Write a comment' })
  await expect(box).toHaveAttribute('aria-expanded', 'false')

  // `@` opens the list; Escape closes it and leaves the dialog open.
  await box.pressSequentially('@')
  const list = dialog.getByRole('listbox', { name: 'Members' })
  await expect(list).toBeVisible()
  await expect(box).toHaveAttribute('aria-expanded', 'true')
  const axe = await axeOn(page).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze()
  expect(axe.violations.map((v) => v.id)).toEqual([])
  await box.press('Escape')
  await expect(list).toBeHidden()
  await expect(dialog).toBeVisible()

  // Typing filters; the arrows move the active option; Enter puts the mention in.
  await box.fill('')
  await box.pressSequentially('Thoughts @qu')
  await expect(list.getByRole('option')).toHaveText(['Zelda Quinn'])
  await box.press('ArrowDown')
  const option = list.getByRole('option', { name: 'Zelda Quinn' })
  await expect(option).toHaveAttribute('aria-selected', 'true')
  await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!)
  await box.press('Enter')
  await expect(list).toBeHidden()
  await box.pressSequentially('on this?')
  await dialog.getByRole('button', { name: 'Post comment' }).click()
  const posted = dialog.getByRole('listitem', { name: /^Comment by/ }).first()
  await expect(posted.locator('.comment-post')).toHaveText('Thoughts @Zelda Quinn on this?')
  // The server kept the mention: a reload shows the name again.
  await page.reload()
  await expect(page.getByRole('dialog').getByText('Thoughts @Zelda Quinn on this?')).toBeVisible()

  // The creator watches the card by default: the toggle `Watch` is pressed (one name, on or off).
  const watch = page.getByRole('dialog').getByRole('button', { name: 'Watch', exact: true })
  await expect(watch).toHaveAttribute('aria-pressed', 'true')
  await watch.click()
  await expect(watch).toHaveAttribute('aria-pressed', 'false')
  await page.reload()
  await expect(watch).toHaveAttribute('aria-pressed', 'false')
  await watch.click()
  await expect(watch).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Unwatch' })).toHaveCount(0)
})

/** While written, a picked mention reads `@Name` and goes as one piece; the comment stores `@[member:{id}]`. */
test('a mention reads @Name while written, and is stored as its token', async ({ page, baseURL }) => {
  const map = await seedMap(baseURL!)
  const zelda = await signUp(baseURL!, { name: 'Zelda Quinn' })
  const dbPath = path.join(process.env.E2E_DATA_DIR!, 'storymap.db')
  const zeldaId = addMember(dbPath, map.owner.workspaceId, zelda.account.id, 'EDITOR')
  await signIn(page.context(), map, baseURL!)
  await page.goto(map.boardPath)
  await boardReady(page)
  await card(page, 'Feature', 'Pay by card').click()
  const dialog = page.getByRole('dialog')
  const box = dialog.getByRole('combobox', { name: 'Write a comment' })
  const list = dialog.getByRole('listbox', { name: 'Members' })

  // Picking shows the name and one space; Backspace takes the space, then the whole mention.
  await box.pressSequentially('Ask @zel')
  await box.press('Enter')
  await expect(list).toBeHidden()
  await expect(box).toHaveValue('Ask @Zelda Quinn ')
  await box.press('Backspace')
  await expect(box).toHaveValue('Ask @Zelda Quinn')
  await box.press('Backspace')
  await expect(box).toHaveValue('Ask ')

  // Picked before a space already there, the name gets no second one.
  await box.pressSequentially('about it')
  await box.press('Home')
  for (let i = 0; i < 3; i++) await box.press('ArrowRight')
  await box.pressSequentially(' @qu')
  await expect(list.getByRole('option')).toHaveText(['Zelda Quinn'])
  await box.press('Enter')
  await expect(box).toHaveValue('Ask @Zelda Quinn about it')
  await box.pressSequentially('first ')
  await expect(box).toHaveValue('Ask @Zelda Quinn first about it')
  await dialog.getByRole('button', { name: 'Post comment' }).click()

  const posted = dialog.getByRole('listitem', { name: /^Comment by/ }).first()
  await expect(posted.locator('.comment-post')).toHaveText('Ask @Zelda Quinn first about it')
  await expect.poll(() => storedPosts(page, map)).toContain(`Ask @[member:${zeldaId}] first about it`)

  // Editing shows the name again, and saving keeps the token.
  await posted.getByRole('button', { name: 'Edit' }).click()
  const edit = posted.getByRole('combobox', { name: 'Edit comment' })
  await expect(edit).toHaveValue('Ask @Zelda Quinn first about it')
  await edit.press('End')
  await edit.pressSequentially(', please')
  await posted.getByRole('button', { name: 'Save' }).click()
  await expect(posted.locator('.comment-post')).toHaveText('Ask @Zelda Quinn first about it, please')
  await expect.poll(() => storedPosts(page, map)).toContain(`Ask @[member:${zeldaId}] first about it, please`)
})
