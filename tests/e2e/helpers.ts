import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

let counter = 0
export function uniqueUser() {
  counter += 1
  const tag = `${Date.now().toString(36)}${process.pid}${counter}`
  return {
    workspaceName: `team${tag}`,
    name: `Tester ${counter}`,
    email: `tester${tag}@example.com`,
    password: 'secret-pass',
  }
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

/** No serious or critical WCAG 2.1 A/AA finding of axe inside `selector`, in the light and the dark theme. */
export async function expectNoSeriousAxeFindings(page: Page, selector: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    const results = await axeOn(page)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .include(selector)
      .analyze()
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(serious, `${selector} (${colorScheme})`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}
