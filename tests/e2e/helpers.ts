import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

let counter = 0
export function uniqueUser() {
  counter += 1
  const tag = `${Date.now().toString(36)}${process.pid}${counter}`
  return { workspaceName: `team${tag}`, name: `Tester ${counter}`, email: `tester${tag}@example.com`, password: 'secret-pass' }
}

/** Signs up through the real form and waits for the welcome page. */
export async function signUpThroughForm(page: Page, user = uniqueUser()) {
  await page.goto('/account/signup')
  await page.getByLabel('Workspace name').fill(user.workspaceName)
  await page.getByLabel('Name', { exact: true }).fill(user.name)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByRole('heading', { name: 'Welcome to Storymap!' })).toBeVisible()
  return user
}

/**
 * The header's account menu button: a <summary>, which has no ARIA role to find it by, named by
 * its content `{workspace} account menu` (the avatar letter is hidden from assistive technology).
 */
export const accountMenu = (page: Page) => page.locator('header summary', { hasText: 'account menu' })

/**
 * axe-core on a page, run in the page itself (legacy mode). The default opens a blank page to
 * merge the results of cross-origin frames, which Storymap's pages do not have: that was half of
 * each check's time, with the same results.
 */
export const axeOn = (page: Page) => new AxeBuilder({ page }).setLegacyMode(true)
