// The board at 100 %, at 25 % and with every goal folded (issue 47, CONTRACT §15): ms from
// navigation until the board is hydrated (the keyboard hook has given it its Tab stop) and the
// elements in the page; then the long tasks (over 50 ms) the page runs in the 2 s after. The member's view is set through the API before each set of loads.
import { chromium } from '@playwright/test'

const BROWSER_ARGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run']
const AFTER_READY_MS = 2000
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]

/** Runs in the page before its scripts: the first frame in which the board has its Tab stop. */
function watchReady() {
  const bench = (window.__view = { readyAt: null, longTasks: [] })
  // Work the page still does after it is ready (the draggables of the cards near the screen).
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) bench.longTasks.push([task.startTime, task.duration])
  }).observe({ type: 'longtask', buffered: true })
  const frame = () => {
    if (document.querySelector('.story-map [tabindex="0"]')) bench.readyAt = performance.now()
    else requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
}

export async function measureViews({ client, origin, boardPath, projectId, loads = 5 }) {
  const bundle = (await client.call('GET', `/v1/projects/${projectId}`)).json
  const none = { collapsedWorkflows: [], collapsedMilestones: [], zoom: 100 }
  const views = [
    { name: '100 %', view: none },
    { name: '25 %', view: { ...none, zoom: 25 } },
    { name: 'every goal folded', view: { ...none, collapsedWorkflows: bundle.workflows.map((w) => w.id) } },
  ]
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: BROWSER_ARGS,
  })
  // Rounds, each loading every view once: a slower minute of the machine then weighs on all of them alike.
  const samples = views.map(() => [])
  const nodes = views.map(() => 0)
  const busyAfter = views.map(() => [])
  try {
    for (let round = 0; round < loads; round++) {
      for (const [index, { view }] of views.entries()) {
        await client.call('PUT', `/v1/projects/${projectId}/view`, view)
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
        const [cookieName, value] = client.cookie.split('=')
        await context.addCookies([{ name: cookieName, value, url: origin }])
        const page = await context.newPage()
        await page.addInitScript(watchReady)
        await page.goto(origin + boardPath, { waitUntil: 'commit' })
        await page.waitForFunction(() => window.__view.readyAt !== null, null, {
          timeout: 120_000,
          polling: 100,
        })
        samples[index].push(await page.evaluate(() => window.__view.readyAt))
        await page.waitForTimeout(AFTER_READY_MS)
        busyAfter[index].push(
          await page.evaluate(() =>
            window.__view.longTasks
              .filter(([start]) => start >= window.__view.readyAt - 1)
              .reduce((sum, [, duration]) => sum + duration, 0),
          ),
        )
        nodes[index] = await page.evaluate(() => document.getElementsByTagName('*').length)
        await context.close()
      }
    }
  } finally {
    await client.call('PUT', `/v1/projects/${projectId}/view`, views[0].view).catch(() => {})
    await browser.close()
  }
  return views.map(({ name }, i) => ({
    name,
    ready: median(samples[i]),
    samples: samples[i],
    nodes: nodes[i],
    busyAfter: median(busyAfter[i]),
  }))
}

/** One line per view, the new figures beside 100 %. */
export function printViews(views) {
  const base = views[0]
  console.log(
    `\nboard views (ms to hydrated, median of ${base.samples.length}; elements in page; long tasks in the 2 s after, median): ` +
      views
        .map(
          (v) =>
            `${v.name} ${v.ready.toFixed(0)} ms, ${v.nodes.toLocaleString('en')} elements, ` +
            `${v.busyAfter.toFixed(0)} ms of long tasks after` +
            (v === base ? '' : ` (${((v.ready / base.ready) * 100).toFixed(0)} % of 100 %'s time)`),
        )
        .join('; '),
  )
}
