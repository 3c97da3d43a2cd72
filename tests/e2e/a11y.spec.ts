import { expect, test, type Page } from '@playwright/test'
import { startServer } from '../support/server'
import { card } from './board-helpers'
import { accountMenu, axeOn } from './helpers'
import { boardReady, openSeededBoard, seedMap, signIn } from './map-fixture'

/**
 * axe-core's WCAG 2.1 A and AA rules on every page and dialog; a finding of impact serious or
 * critical fails the test, with its rule, help text and the elements it names. `only`: a
 * selector to check alone (a dialog over a board checked before).
 */
async function expectAccessible(page: Page, what: string, only?: string) {
  let axe = axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
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

// Every page and dialog in both themes: the system's light and dark (data-theme="system" follows
// prefers-color-scheme; a chosen dark theme uses the same palette).
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme })

    test('the signed-out pages and Page not found', async ({ page }) => {
      test.setTimeout(120_000)
      for (const [path, heading] of [
        ['/account/login', 'Log in'],
        ['/account/signup', 'Sign up'],
        ['/account/reset', 'Reset password'],
        ['/account/reset/no-such-key', 'Choose a new password'],
        ['/account/signupsuccess', 'Welcome to Storymap!'],
        ['/account/verify/no-such-key', 'Something went wrong'],
        ['/account/invitation/no-such-code', 'Invitation to join workspace'],
        ['/account/contact', 'Contact us'],
        ['/account/success', 'Plan change successful!'],
        ['/account/cancel', 'Something went wrong'],
        ['/no/such/page', 'Page not found'],
      ]) {
        await page.goto(path)
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
        await expectAccessible(page, path)
      }
    })

    test('the form errors of sign-up and log-in', async ({ page }) => {
      await page.goto('/account/signup')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await expect(page.getByText('Required.').first()).toBeVisible()
      await expectAccessible(page, 'sign-up with errors')
      await page.goto('/account/login')
      await page.getByLabel('Email').fill('nobody@example.com')
      await page.getByLabel('Password').fill('wrong-password')
      await page.getByRole('button', { name: 'Log in' }).click()
      await expect(page.getByText('Email or password is incorrect.')).toBeVisible()
      await expectAccessible(page, 'log-in with an error')
    })

    test('the board, with the search, the filter panel and chips', async ({ page, baseURL }) => {
      await openSeededBoard(page, baseURL!)
      await expectAccessible(page, 'board')
      // A card's size and annotation tags are drawn by CSS, so its link's text is its title alone.
      const drawn = (el: Element) => getComputedStyle(el, '::before').content
      const tile = card(page, 'Feature', 'Café menu')
      expect(await tile.getByTitle('Size').evaluate(drawn)).toBe('"3"')
      expect(await tile.locator('.annotation-icon').evaluate(drawn)).toBe('"RSK"')
      await page.getByRole('searchbox', { name: 'Search cards' }).fill('pay')
      await page.getByRole('button', { name: /^Filters/ }).click()
      await page.getByRole('checkbox', { name: 'Blue' }).check()
      await expect(page.getByRole('button', { name: 'Color: Blue (remove filter)' })).toBeVisible()
      await expectAccessible(page, 'board with the search, the filter panel and a chip')
    })

    test('the board at every zoom level, folded and with its progress (CONTRACT §15)', async ({
      page,
      baseURL,
    }) => {
      await openSeededBoard(page, baseURL!)
      for (const level of ['75 %', '50 %', '25 %']) {
        await page.getByRole('button', { name: 'Zoom out' }).click()
        await expect(page.locator('.zoom-level')).toHaveText(level)
        await expectAccessible(page, `board at ${level}`)
      }
      await page.getByRole('button', { name: 'Collapse Shop' }).click()
      await page.getByRole('button', { name: 'Collapse Later' }).click()
      await expectAccessible(page, 'board at 25 %, folded')
      await page.keyboard.press('=')
      await page.keyboard.press('=')
      await page.keyboard.press('=')
      await expect(page.locator('.zoom-level')).toHaveText('100 %')
      await expectAccessible(page, 'board at 100 %, folded')
    })

    test('the shortcuts dialog, the persona panel and every card dialog', async ({ page, baseURL }) => {
      test.setTimeout(120_000)
      await openSeededBoard(page, baseURL!)
      await page.keyboard.press('?')
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
      await expectAccessible(page, 'shortcuts dialog', '[role="dialog"]')
      await page.keyboard.press('Escape')

      await page.getByRole('button', { name: 'Personas' }).click()
      const personas = page.getByRole('complementary', { name: 'Personas' })
      await expect(personas).toBeVisible()
      await expectAccessible(page, 'persona panel', '.persona-panel')
      await personas.getByRole('button', { name: /^Pat/ }).click()
      await expect(personas.getByRole('button', { name: 'Edit' })).toBeVisible()
      await expectAccessible(page, 'a persona in the panel', '.persona-panel')
      await personas.getByRole('button', { name: 'Edit' }).click()
      await expect(personas.getByLabel('Name')).toHaveValue('Pat')
      await expectAccessible(page, 'persona form', '.persona-panel')
      await page.keyboard.press('Escape')
      await expect(personas).toBeHidden()
      await page.getByRole('button', { name: 'Personas' }).click()
      await personas.getByRole('button', { name: 'New persona' }).click()
      await expect(personas.getByRole('heading', { name: 'New persona' })).toBeVisible()
      await expectAccessible(page, 'new persona form', '.persona-panel')
      await page.keyboard.press('Escape')
      await expect(personas).toBeHidden()
      await page.getByRole('button', { name: 'Add persona to goal Shop' }).click()
      await expect(personas.getByRole('button', { name: /^Pat/ })).toBeVisible()
      await expectAccessible(page, 'the personas a goal’s + offers', '.persona-panel')
      await page.keyboard.press('Escape')
      await expect(personas).toBeHidden()

      await page.getByRole('button', { name: 'Add feature to MVP / Browse' }).click()
      await expect(page.getByRole('dialog', { name: 'New feature in MVP › Browse' })).toBeVisible()
      await expectAccessible(page, 'New card dialog', '[role="dialog"]')
      await page.keyboard.press('Escape')
      await expect(page.getByRole('dialog')).toHaveCount(0)

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

    test('the board offline with its notice, and a project that is not found', async ({ page, baseURL }) => {
      const map = await openSeededBoard(page, baseURL!)
      await page.context().setOffline(true)
      await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible()
      await expectAccessible(page, 'board offline')
      await page.context().setOffline(false)
      await page.goto(`/${map.owner.workspaceName}/projects/${crypto.randomUUID()}`)
      await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible()
      await expectAccessible(page, 'project not found')
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
      await accountMenu(page).click()
      await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible()
      await expectAccessible(page, 'project list with the account menu open')
      await page.keyboard.press('Escape')
      await page.getByRole('link', { name: 'New project' }).click()
      await expect(page.getByRole('dialog', { name: 'Create project' })).toBeVisible()
      await expectAccessible(page, 'create project dialog', '[role="dialog"]')
      await page.keyboard.press('Escape')
      await page.getByRole('button', { name: 'Project menu: Coffee shop' }).click()
      await page.getByRole('menuitem', { name: 'Duplicate' }).click()
      await expect(page.getByRole('dialog', { name: 'Duplicate project' })).toBeVisible()
      await expectAccessible(page, 'duplicate project dialog', '[role="dialog"]')
      await page.keyboard.press('Escape')
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
      await page.getByRole('link', { name: 'Delete account' }).click()
      await expect(page.getByRole('button', { name: 'Yes, I am really sure!' })).toBeVisible()
      await expectAccessible(page, 'account settings, deleting the account')
      await page.goto('/account/workspaces')
      await expect(page.getByRole('heading', { name: 'My workspaces' })).toBeVisible()
      await expectAccessible(page, 'my workspaces')
      await page.getByRole('link', { name: 'New workspace' }).click()
      await expect(page.getByRole('dialog', { name: 'Create workspace' })).toBeVisible()
      await expectAccessible(page, 'create workspace dialog', '[role="dialog"]')
    })

    test('the public link and demo mode', async ({ browser, baseURL }) => {
      const map = await seedMap(baseURL!)
      const context = await browser.newContext({ baseURL, colorScheme })
      const page = await context.newPage()
      await page.goto(map.linkPath)
      await expect(page.getByText('VIEW ONLY', { exact: true })).toBeVisible()
      await expectAccessible(page, 'public link')
      await card(page, 'Feature', 'Café menu').click()
      await expect(page.getByRole('dialog', { name: 'Feature card' })).toBeVisible()
      await expectAccessible(page, 'feature dialog on the public link', '[role="dialog"]')
      await page.goto('/link/no-such-key')
      await expect(page.getByRole('heading', { name: 'Project not found.' })).toBeVisible()
      await expectAccessible(page, 'public link that fails')
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
  })
}

test('a screen reader hears where every card is: main, headings, named cells, place before the drag hint, a skip link', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!)
  for (const path of [map.boardPath, map.linkPath]) {
    await page.goto(path)
    await boardReady(page)
    const main = page.getByRole('main')
    await expect(main).toHaveCount(1)
    await expect(main.getByRole('region', { name: 'Story map' })).toBeVisible()
    // Goals and releases are headings under the project's title.
    for (const name of ['Shop (goal)', 'Help (goal)', 'MVP (release)', 'Later (release)'])
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible()
    // A cell is a group named by its release and activity; its card says the place first, then its
    // details, then how to drag it.
    const cell = page.getByRole('group', { name: 'MVP / Browse', exact: true })
    await expect(cell.getByRole('link')).toHaveCount(2)
    await expect(card(cell, 'Feature', 'Café menu')).toBeVisible()
    await expect(card(cell, 'Feature', 'Search by name')).toBeVisible()
    const description = await card(page, 'Feature', 'Café menu').evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent?.trim())
        .join(' '),
    )
    expect(description).toMatch(/^In MVP \/ Browse\. Size 3, Risky/)
    if (path === map.boardPath) expect(description).toMatch(/Size 3, Risky Space lifts the card\./)
    await expect(card(page, 'Feature', 'Café menu')).toHaveAccessibleDescription(
      /^In MVP \/ Browse\. Size 3, Risky/,
    )

    // The first Tab stop of the page skips to the board: its card that has the board's Tab stop.
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to board' })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()
    await page.keyboard.press('Enter')
    await expect(card(page, 'Goal', 'Shop')).toBeFocused()
  }
})
