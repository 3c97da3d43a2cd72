// The board in Chromium: how long until all cards are in the page and hydrated, how long a
// dropped card takes to show in its new cell, how long a key in the search takes to show the
// filtered board, how long a card clicked before hydration takes to open, and how much
// JavaScript the board route loads.
import { chromium } from '@playwright/test'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { ROOT } from './servers.mjs'

const BROWSER_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/**
 * Runs in the page before any of its scripts: on every animation frame, counts feature cards
 * until `expected` are in the DOM, then (unless `hydrates` is false: the static copy) waits for
 * React to have hydrated the last one. Times are performance.now(), i.e. ms since navigation start.
 */
function watchBoard({ expected, hydrates }) {
  const bench = (window.__bench = { cardsAt: null, hydratedAt: null })
  const hydrated = (el) => Object.keys(el).some((k) => k.startsWith('__reactFiber'))
  // A live collection: reading its length each frame costs little, where a querySelectorAll of
  // 4,000 cards every frame was 6 % of the main thread during hydration (the measurement's own cost).
  const cards = document.getElementsByClassName('feature-card')
  const frame = () => {
    if (bench.cardsAt === null && cards.length >= expected) {
      bench.cardsAt = performance.now()
      if (!hydrates) return
    }
    if (bench.cardsAt !== null && hydrated(cards[cards.length - 1])) bench.hydratedAt = performance.now()
    if (bench.hydratedAt === null) requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
}

/**
 * Runs in the page, just before the dropping key: records that key's event time, and the first
 * DOM change after which the card is outside its old cell (then the next animation frame).
 * The drag library handles the key in its own listener, before this one runs, so the card may
 * move before `droppedAt` is set; it cannot move before the key, so no order is assumed.
 */
function watchDrop(href) {
  const link = () => document.querySelector(`a.feature-card[href="${href}"]`)
  const source = link().closest('.cell')
  const drop = (window.__drop = { droppedAt: null, mutatedAt: null, shownAt: null })
  const onKey = (e) => {
    if (e.key !== ' ') return
    drop.droppedAt = e.timeStamp
    window.removeEventListener('keydown', onKey, { capture: true })
  }
  window.addEventListener('keydown', onKey, { capture: true })
  const observer = new MutationObserver(() => {
    const card = link()
    if (!card || card.closest('.cell') === source) return
    drop.mutatedAt = performance.now()
    observer.disconnect()
    requestAnimationFrame(() => (drop.shownAt = performance.now()))
  })
  observer.observe(document.body, { childList: true, subtree: true })
}

/**
 * Runs in the page: for each key typed into the search field, its event time and the animation
 * frame after the `{n} of {m} features` line changed (React commits the count and the cards
 * together, so that frame shows the filtered board).
 */
function watchSearch() {
  const count = document.querySelector('.find-count')
  const search = (window.__search = { keyAt: null, shownAt: null, text: count.textContent })
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.target.id !== 'board-search') return
      search.keyAt = e.timeStamp
      search.shownAt = null
    },
    { capture: true },
  )
  new MutationObserver(() => {
    if (count.textContent === search.text || search.keyAt === null) return
    search.text = count.textContent
    requestAnimationFrame(() => (search.shownAt = performance.now()))
  }).observe(count, { childList: true, characterData: true, subtree: true })
}

/** Each key typed into (or erased from) the search; ms from the key to the frame showing the new count. */
const SEARCH_KEYS = ['2', '3', '4', 'Backspace', 'Backspace', 'Backspace', '7', '7', 'Backspace', 'Backspace']

async function timeSearch(page) {
  await page.locator('#board-search').focus()
  await page.evaluate(watchSearch)
  const samples = []
  for (const key of SEARCH_KEYS) {
    const before = await page.evaluate(() => window.__search.text)
    await page.keyboard.press(key)
    await page.waitForFunction(
      (text) => window.__search.shownAt !== null && window.__search.text !== text,
      before,
      { timeout: 20_000, polling: 20 },
    )
    const { keyAt, shownAt, text } = await page.evaluate(() => window.__search)
    samples.push({ key, count: text, shown: shownAt - keyAt })
  }
  return samples
}

const gzipBytes = (file) => zlib.gzipSync(fs.readFileSync(file)).length

/**
 * Opens the board in a fresh context (cold cache); returns timings and the JS files it loaded.
 * `hydrates: false` for the static copy, which has no script: done once its cards are in the page.
 */
async function loadBoard(browser, origin, boardPath, cookie, expectedCards, hydrates = true) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const [name, value] = cookie.split('=')
  await context.addCookies([{ name, value, url: origin }])
  const page = await context.newPage()
  const scripts = new Set()
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.endsWith('.js')) scripts.add(pathname)
  })
  await page.addInitScript(watchBoard, { expected: expectedCards, hydrates })
  await page.goto(origin + boardPath, { waitUntil: 'commit' })
  await page.waitForFunction(
    (hydrates) => (hydrates ? window.__bench.hydratedAt : window.__bench.cardsAt) !== null,
    hydrates,
    { timeout: 120_000, polling: 100 },
  )
  const times = await page.evaluate(() => window.__bench)
  // The scripts the board needed: those asked for before it was hydrated. What the page fetches
  // once idle (the card dialog's route, ahead of a click) is not the board's.
  const needed = new Set(
    await page.evaluate(
      (until) =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => until === null || entry.startTime <= until)
          .map((entry) => new URL(entry.name).pathname),
      times.hydratedAt,
    ),
  )
  return { page, context, times, scripts: [...scripts].filter((p) => needed.has(p)) }
}

/** Drags one feature one cell to the right with the keyboard; ms from the drop to the card shown there. */
async function timeDrop(page, boardPath, featureHref) {
  let held = null
  let release
  const released = new Promise((resolve) => (release = resolve))
  const isBoardData = (url) => url.pathname.startsWith(boardPath)
  await page.route(isBoardData, async (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    held = route
    await released // the server's answer waits until the card has shown
    await route.continue()
  })
  const announced = () =>
    page.evaluate(() => document.querySelector('[id^="rfd-announcement-"]')?.textContent ?? '')
  const waitToSay = (text, timeout = 20_000) =>
    page.waitForFunction(
      (expected) => document.querySelector('[id^="rfd-announcement-"]')?.textContent?.includes(expected),
      text,
      { timeout, polling: 50 },
    )
  // The library moves a card with the keyboard only to where it is wholly on screen: the card
  // goes to the middle of the window first (a row at the bottom edge could not move right).
  const tile = page.locator(`a.feature-card[href="${featureHref}"]`)
  await tile.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await tile.focus()
  await page.keyboard.press('Space')
  // The lift ends once the library has measured every card of the map: wait for it to say so.
  await waitToSay('Lifted ')
  await page.waitForTimeout(300) // the lift's own animation
  await page.keyboard.press('ArrowRight')
  await waitToSay('Moved ')
  await page.waitForTimeout(600) // the library animates each step and ignores keys mid-animation
  const afterMove = await announced()
  await page.evaluate(watchDrop, featureHref) // times the next Space: the drop
  await page.keyboard.press('Space')
  try {
    await page.waitForFunction(
      () => window.__drop.shownAt !== null && window.__drop.droppedAt !== null,
      null,
      { timeout: 20_000, polling: 50 },
    )
  } catch {
    const said = await announced()
    const words = (text) => text?.replace(/\s+/g, ' ').trim()
    throw new Error(
      `the dropped card (${featureHref}) did not show before the server answered (request held: ${held !== null}; ` +
        `the drag library said after ArrowRight: "${words(afterMove)}", after the drop: "${words(said)}")`,
    )
  }
  const drop = await page.evaluate(() => window.__drop)
  for (let waited = 0; held === null && waited < 10_000; waited += 50) await page.waitForTimeout(50)
  release()
  if (held === null) throw new Error('the drop sent no request')
  // The write and its reload are done (the board's live stream stays open, so no 'networkidle').
  await page.waitForFunction(() => {
    const state = window.__reactRouterDataRouter?.state
    return (
      state?.navigation.state === 'idle' &&
      state.revalidation === 'idle' &&
      [...state.fetchers.values()].every((f) => f.state === 'idle')
    )
  })
  await page.unroute(isBoardData)
  return { shown: drop.shownAt - drop.droppedAt, mutated: drop.mutatedAt - drop.droppedAt }
}

/**
 * A click on a card as soon as all cards are in the page, while the board is still hydrating
 * (issue #21): ms from the click to the card's dialog shown, and from hydration to the dialog.
 */
async function timeEarlyClick(browser, origin, boardPath, cookie, expectedCards) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  try {
    const [name, value] = cookie.split('=')
    await context.addCookies([{ name, value, url: origin }])
    const page = await context.newPage()
    await page.addInitScript(watchBoard, { expected: expectedCards, hydrates: true })
    await page.addInitScript(() => {
      const click = (window.__click = { clickedAt: null, dialogAt: null })
      addEventListener('click', (e) => (click.clickedAt ??= e.timeStamp), { capture: true })
      const frame = () => {
        if (click.clickedAt !== null && document.querySelector('[role="dialog"]'))
          click.dialogAt = performance.now()
        else requestAnimationFrame(frame)
      }
      requestAnimationFrame(frame)
    })
    await page.goto(origin + boardPath, { waitUntil: 'commit' })
    await page.waitForFunction(() => window.__bench?.cardsAt !== null, null, {
      timeout: 120_000,
      polling: 10,
    })
    const tile = page.locator('a.feature-card').first()
    const box = await tile.boundingBox()
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    await page.waitForFunction(
      () => window.__click.dialogAt !== null && window.__bench.hydratedAt !== null,
      null,
      { timeout: 60_000, polling: 50 },
    )
    const { clickedAt, dialogAt } = await page.evaluate(() => window.__click)
    const { hydratedAt } = await page.evaluate(() => window.__bench)
    return {
      clickedAt,
      dialogAt,
      hydratedAt,
      shown: dialogAt - clickedAt,
      afterHydration: dialogAt - hydratedAt,
    }
  } finally {
    await context.close()
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]

/**
 * `loads` loads of the static copy (`staticCopy`: startStaticBoardCopy) and of the board, each
 * after one warm-up and in a fresh context, alternating so both see the same machine; then `drags`
 * drops and the search keys (SEARCH_KEYS) on the last loaded board. Medians and every sample.
 */
export async function measureBoard({
  origin,
  boardPath,
  cookie,
  expectedCards,
  staticCopy,
  loads = 3,
  drags = 3,
}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: BROWSER_ARGS,
  })
  try {
    const loadStatic = () => loadBoard(browser, staticCopy.url, '', cookie, expectedCards, false)
    await (await loadStatic()).context.close()
    const warm = await loadBoard(browser, origin, boardPath, cookie, expectedCards)
    await warm.context.close()
    const samples = []
    const staticSamples = []
    let last
    for (let i = 0; i < loads; i++) {
      const copy = await loadStatic()
      staticSamples.push(copy.times)
      await copy.context.close()
      if (last) await last.context.close()
      last = await loadBoard(browser, origin, boardPath, cookie, expectedCards)
      samples.push(last.times)
    }
    // After hydration the board still runs effects and observers (e.g. which cells accept drops):
    // the drags start once the page has been idle twice.
    for (let i = 0; i < 2; i++)
      await last.page.evaluate(
        () => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })),
      )
    const hrefs = await last.page.$$eval('.release-cells', (rows) =>
      rows.map((row) => row.querySelector('.cell a.feature-card')?.getAttribute('href')).filter(Boolean),
    )
    const drops = []
    for (let i = 0; i < drags; i++) drops.push(await timeDrop(last.page, boardPath, hrefs[i]))
    const searchSamples = await timeSearch(last.page)
    await last.context.close()
    const earlyClicks = []
    for (let i = 0; i < loads; i++)
      earlyClicks.push(await timeEarlyClick(browser, origin, boardPath, cookie, expectedCards))
    const jsFiles = warm.scripts.map((p) => ({
      path: p,
      gzip: gzipBytes(path.join(ROOT, 'build/client', p)),
    }))
    return {
      cardsInPage: median(samples.map((s) => s.cardsAt)),
      hydrated: median(samples.map((s) => s.hydratedAt)),
      hydrationLead: median(samples.map((s) => s.hydratedAt - s.cardsAt)),
      loadSamples: samples,
      staticCardsInPage: median(staticSamples.map((s) => s.cardsAt)),
      staticSamples,
      dropShown: median(drops.map((d) => d.shown)),
      dropSamples: drops,
      searchShown: median(searchSamples.map((s) => s.shown)),
      searchWorst: Math.max(...searchSamples.map((s) => s.shown)),
      searchSamples,
      earlyClickAfterHydration: median(earlyClicks.map((c) => c.afterHydration)),
      earlyClickShown: median(earlyClicks.map((c) => c.shown)),
      earlyClicks,
      jsGzip: jsFiles.reduce((n, f) => n + f.gzip, 0),
      jsFiles,
    }
  } finally {
    await browser.close()
  }
}
