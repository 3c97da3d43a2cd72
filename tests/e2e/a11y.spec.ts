import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { startServer } from '../support/server'
import { card } from './board-helpers'
import { openSeededBoard, seedMap, signIn } from './map-fixture'

/**
 * axe-core's WCAG 2.1 A and AA rules on every page and dialog; a finding of impact serious or
 * critical fails the test, with its rule, help text and the elements it names. `only`: a
 * selector to check alone (a dialog over a board checked before).
 */
async function expectAccessible(page: Page, what: string, only?: string) {
  let axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
  if (only) axe = axe.include(only)
  const results = await axe.analyze()
  const findings = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
    )
  expect(findings, `${what}:\n${findings.join('\n')}`).toEqual([])
  expect(
    await namesNotStartingWithLabel(page, only ?? 'body'),
    `${what}: names that do not start with the visible label`,
  ).toEqual([])
}

/**
 * Controls named by aria-label whose name does not start with their visible text (WCAG 2.5.3,
 * label in name: speech input users say what they see). Text hidden from assistive technology
 * or visually (`aria-hidden`, `.sr-only`) is not visible text; icon-only controls are skipped.
 */
function namesNotStartingWithLabel(page: Page, scope: string) {
  return page
    .locator(scope)
    .first()
    .evaluate((root) => {
      const visibleText = (node: Node): string => {
        if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? ''
        if (!(node instanceof HTMLElement)) return ''
        if (node.getAttribute('aria-hidden') === 'true' || node.hidden || node.classList.contains('sr-only'))
          return ''
        return [...node.childNodes].map(visibleText).join('')
      }
      const words = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase()
      const controls = root.querySelectorAll<HTMLElement>(
        'a[aria-label], button[aria-label], summary[aria-label], [role="button"][aria-label], input[aria-label]',
      )
      return [...controls]
        .map((el) => ({
          name: words(el.getAttribute('aria-label')!),
          label: words(el instanceof HTMLInputElement ? el.placeholder : visibleText(el)),
        }))
        .filter(({ name, label }) => label !== '' && !name.startsWith(label))
        .map(({ name, label }) => `"${name}" for "${label}"`)
    })
}

test('the account pages', async ({ page }) => {
  for (const [path, heading] of [
    ['/account/login', 'Log in'],
    ['/account/signup', 'Sign up'],
    ['/account/reset', 'Reset password'],
  ]) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(heading.split(' ')[0])
    await expectAccessible(page, path)
  }
})

test('the board, with the search, the filter panel and chips', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!)
  await expectAccessible(page, 'board')
  await page.getByRole('searchbox', { name: 'Search cards' }).fill('pay')
  await page.getByRole('button', { name: /^Filters/ }).click()
  await page.getByRole('checkbox', { name: 'Blue' }).check()
  await expect(page.getByRole('button', { name: 'Colour: Blue (remove filter)' })).toBeVisible()
  await expectAccessible(page, 'board with the search, the filter panel and a chip')
})

test('the shortcuts dialog, the persona panel and every card dialog', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  await openSeededBoard(page, baseURL!)
  await page.keyboard.press('?')
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
  await expectAccessible(page, 'shortcuts dialog', '[role="dialog"]')
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Personas' }).click()
  await expect(page.getByRole('complementary', { name: 'Personas' })).toBeVisible()
  await expectAccessible(page, 'persona panel', '.persona-panel')
  await page.keyboard.press('Escape')

  for (const [kind, title] of [
    ['Goal', 'Shop'],
    ['Activity', 'Browse'],
    ['Release', 'MVP'],
    ['Feature', 'Café menu'],
  ] as const) {
    await card(page, kind, title).click()
    await expect(page.getByRole('dialog', { name: `${kind} card` })).toBeVisible()
    await expectAccessible(page, `${kind} dialog`, '[role="dialog"]')
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toHaveCount(0)
  }
  await page.getByRole('link', { name: 'Project settings' }).click()
  await expect(page.getByRole('dialog', { name: 'Project card' })).toBeVisible()
  await expectAccessible(page, 'project dialog', '[role="dialog"]')
})

test('the Activity and Trash panels', async ({ page, baseURL }) => {
  await openSeededBoard(page, baseURL!)
  await page.getByRole('button', { name: 'Activity', exact: true }).click()
  const activity = page.getByRole('complementary', { name: 'Activity' })
  await expect(activity.getByText("Added feature 'Contact form'")).toBeVisible()
  await expectAccessible(page, 'activity panel', '.side-panel')
  await page.keyboard.press('Escape')

  await card(page, 'Feature', 'Café menu').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Card menu' }).click()
  await page.getByRole('dialog').getByRole('menuitem', { name: 'Delete' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete' }).click()
  await expect(card(page, 'Feature', 'Café menu')).toBeHidden()
  await page.getByRole('button', { name: 'Trash', exact: true }).click()
  const trash = page.getByRole('complementary', { name: 'Trash' })
  await expect(trash.getByText('Café menu')).toBeVisible()
  await expectAccessible(page, 'trash panel', '.side-panel')
})

test('the project list with its Import and Trash dialogs, workspace settings and account settings', async ({
  page,
  baseURL,
}) => {
  const map = await seedMap(baseURL!)
  await signIn(page.context(), map, baseURL!)
  await page.goto(`/${map.owner.workspaceName}`)
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible()
  await expectAccessible(page, 'project list')
  await page.getByRole('link', { name: 'Import project' }).click()
  await expect(page.getByRole('dialog', { name: 'Import project' })).toBeVisible()
  await expectAccessible(page, 'import dialog', '[role="dialog"]')
  await page.keyboard.press('Escape')
  await page.getByRole('link', { name: 'Trash' }).click()
  await expect(page.getByRole('dialog', { name: 'Trash' })).toBeVisible()
  await expectAccessible(page, 'project trash dialog', '[role="dialog"]')
  await page.goto(`/${map.owner.workspaceName}/settings`)
  await expect(page.getByRole('region', { name: 'Members', exact: true })).toBeVisible()
  await expectAccessible(page, 'workspace settings')
  await page.goto('/account/settings')
  await expect(page.getByRole('heading', { name: 'Account settings' })).toBeVisible()
  await expectAccessible(page, 'account settings')
})

test('the public link and demo mode', async ({ browser, baseURL }) => {
  const map = await seedMap(baseURL!)
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await page.goto(map.linkPath)
  await expect(page.getByText('VIEW ONLY', { exact: true })).toBeVisible()
  await expectAccessible(page, 'public link')
  await page.goto(`${map.linkPath}?demo=1`)
  await expect(page.getByText('DEMO MODE', { exact: true })).toBeVisible()
  await expectAccessible(page, 'demo mode')
  await context.close()
})

test('the subscription page (hosted mode)', async ({ page }) => {
  const server = await startServer({
    APP_MODE: 'hosted',
    TRIAL_DAYS: '14',
    STRIPE_PRICE_BASIC: 'price_basic',
  })
  try {
    const map = await seedMap(server.url, { goals: {}, releases: [], features: [] })
    await signIn(page.context(), map, server.url)
    await page.goto(`${server.url}/${map.owner.workspaceName}/subscription`)
    await expect(page.getByRole('region', { name: 'Plan' })).toBeVisible()
    await expectAccessible(page, 'subscription page')
  } finally {
    await server.stop()
  }
})
