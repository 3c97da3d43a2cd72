import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import path from 'node:path'
import { addMember } from '../support/board'
import { signUp } from '../support/client'
import { card } from './board-helpers'
import { boardReady, seedMap, signIn } from './map-fixture'

/** Mentions and watching (CONTRACT §12): `@` in the comment box picks a member with the keyboard. */
test('mention a member with the keyboard, and Watch / Unwatch a card', async ({ page, baseURL }) => {
  const map = await seedMap(baseURL!)
  const zelda = await signUp(baseURL!, { name: 'Zelda Quinn' })
  addMember(path.join(process.env.E2E_DATA_DIR!, 'storymap.db'), map.owner.workspaceId, zelda.account.id, 'VIEWER')
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
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze()
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

  // The creator watches the card by default.
  const watch = page.getByRole('dialog').getByRole('button', { name: /^(Watch|Unwatch)$/ })
  await expect(watch).toHaveText('Unwatch')
  await watch.click()
  await expect(watch).toHaveText('Watch')
  await page.reload()
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Watch', exact: true })).toBeVisible()
  await page.getByRole('dialog').getByRole('button', { name: 'Watch', exact: true }).click()
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Unwatch' })).toBeVisible()
})
