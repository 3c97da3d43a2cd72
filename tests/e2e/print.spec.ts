import { expect, test, type Page } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { openSeededBoard, type MapShape } from './map-fixture'

/**
 * Nine activity columns: more than one landscape page is wide (six), so the map prints in two
 * bands, Shop's four columns, then Help's three and Admin's two.
 */
const WIDE_MAP: MapShape = {
  goals: {
    Shop: ['Browse', 'Compare', 'Order', 'Pay'],
    Help: ['Chat', 'Call', 'Mail'],
    Admin: ['Stock', 'Prices'],
  },
  releases: ['MVP', 'Later'],
  features: [
    { title: 'Café menu', cell: ['MVP', 'Browse'], color: 'RED', estimate: 3, annotations: 'RISKY' },
    { title: 'Side by side', cell: ['MVP', 'Compare'], estimate: 5 },
    { title: 'Pay by card', cell: ['MVP', 'Pay'], color: 'BLUE', estimate: 8, annotations: 'BLOCKED' },
    { title: 'Live chat', cell: ['MVP', 'Chat'], estimate: 2 },
    { title: 'Call back', cell: ['Later', 'Call'], color: 'GREEN' },
    { title: 'Price list upload', cell: ['Later', 'Prices'], estimate: 1, annotations: 'IDEA' },
  ],
}
const TITLES = [
  ...Object.keys(WIDE_MAP.goals),
  ...Object.values(WIDE_MAP.goals).flat(),
  ...WIDE_MAP.releases,
  ...WIDE_MAP.features.map((f) => f.title),
]

const poppler = (tool: string, args: string[]) => {
  try {
    return execFileSync(tool, args, { encoding: 'utf8' })
  } catch (error) {
    throw new Error(`${tool} (Debian package poppler-utils) is needed for this test: ${String(error)}`)
  }
}

/** Prints the page to PDF as Chromium's print does (CSS page size); returns each page's text. */
async function printToPdf(page: Page, file: string) {
  await page.pdf({ path: file, preferCSSPageSize: true })
  const info = poppler('pdfinfo', [file])
  const [, width, height] = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(info)!
  // One string per page, white space (line breaks in narrow columns too) as single spaces.
  const pages = poppler('pdftotext', ['-layout', file, '-'])
    .split('\f')
    .slice(0, -1)
    .map((text) => text.replace(/\s+/g, ' '))
  return { pages, text: pages.join(' '), landscape: Number(width) > Number(height) }
}

test('Print lays the whole map on landscape pages: title and date on each, every card, totals, no controls', async ({
  page,
  baseURL,
}, testInfo) => {
  await openSeededBoard(page, baseURL!, '', WIDE_MAP)
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute('data-printed', 'yes')
  })
  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'Print' }).click()
  await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes')

  const { pages, text, landscape } = await printToPdf(page, testInfo.outputPath('board.pdf'))
  expect(landscape).toBe(true)
  expect(pages.length).toBeGreaterThanOrEqual(2)
  const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date())
  for (const [i, pageText] of pages.entries()) {
    expect(pageText.split('Coffee shop').length - 1, `page ${i + 1} has the title once`).toBe(1)
    expect(pageText, `page ${i + 1}`).toContain(today)
  }
  for (const title of TITLES) expect(text).toContain(title)
  expect(text).toMatch(/Size 18 · 4 features/) // MVP
  expect(text).toMatch(/Size 1 · 2 features/) // Later
  expect(text).toContain('RSK') // annotations
  for (const chrome of [
    'Storymap',
    'Search cards',
    'Filters',
    'features shown',
    'Add release',
    'Add goal',
    'Add activity',
    'Personas',
    'Share link',
    'Show closed',
    'Export CSV',
    'Undo',
    'Redo',
    'Activity',
    'Trash',
  ])
    expect(text, `"${chrome}" is not printed`).not.toContain(chrome)
})

test('a filtered board prints only the cards it shows, and says so', async ({ page, baseURL }, testInfo) => {
  await openSeededBoard(page, baseURL!, '?color=RED&color=GREEN', WIDE_MAP)
  const { text, pages } = await printToPdf(page, testInfo.outputPath('filtered.pdf'))
  for (const pageText of pages) expect(pageText).toContain('Coffee shop')
  expect(text).toContain('Café menu')
  expect(text).toContain('Call back')
  expect(text).not.toContain('Pay by card')
  expect(text).toMatch(/Filtered view, 2 features shown of 6 · Color: Red · Color: Green/)
  expect(text).toMatch(/Size 3 of 18 · 1 of 4 features/)
})

test('print leaves out the presence avatars, the toolbar’s title (the page margin has it) and empty cells’ lines', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!, '', WIDE_MAP)
  const me = page.getByRole('img', { name: /\(you\)$/ })
  const title = page.getByRole('heading', { name: 'Coffee shop', level: 1 })
  await expect(me).toBeVisible()
  await expect(title).toBeVisible()
  const cells = () =>
    page.locator('.story-map .cell').evaluateAll((all) =>
      all.map((cell) => ({
        cards: cell.querySelectorAll('a.card-tile').length,
        border: ['Top', 'Right', 'Bottom', 'Left'].some(
          (side) =>
            parseFloat(getComputedStyle(cell).getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0,
        ),
      })),
    )

  await page.emulateMedia({ media: 'print' })
  await expect(me).toBeHidden()
  await expect(title).toBeHidden()
  const printed = await cells()
  expect(printed.filter((c) => c.cards === 0).length).toBeGreaterThan(0)
  for (const cell of printed) expect(cell.border, `a cell with ${cell.cards} cards`).toBe(cell.cards > 0)

  await page.emulateMedia({ media: 'screen' })
  await expect(me).toBeVisible()
  await expect(title).toBeVisible()
})
