// Prints one plain line over every runner: "N passed, N failed" (exit 1 when anything failed).
import fs from 'node:fs'

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

/** The titles of the Playwright tests whose outcome was "flaky". */
function flakyTests(report) {
  const names = []
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'flaky')
          names.push(`${spec.file ?? suite.file}: ${[...path, spec.title].join(' › ')}`)
    for (const child of suite.suites ?? [])
      walk(child, suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path)
  }
  for (const suite of report.suites ?? []) walk(suite, [])
  return names
}

/** The titles of the Playwright tests that failed (unexpected). */
function failedSpecs(suite, path = []) {
  const names = []
  const here = suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? [])
      if (test.status === 'unexpected')
        names.push(`${spec.file ?? suite.file}: ${[...here, spec.title].join(' › ')}`)
  for (const child of suite.suites ?? []) names.push(...failedSpecs(child, here))
  return names
}

let passed = 0
let failed = Number(process.argv[2] ?? 0)
// A runner that exited non-zero without reporting a failed test (a crash, a config error,
// no test run at all) still counts as one failure.
const [vitestRc, playwrightRc] = [Number(process.argv[3] ?? 0), Number(process.argv[4] ?? 0)]

const vitest = readJson('reports/vitest.json')
// Named again at the very end, where a CI log's tail still shows them.
for (const file of vitest?.testResults ?? []) {
  for (const test of file.assertionResults ?? [])
    if (test.status === 'failed') {
      console.log(`failed: ${file.name.replace(process.cwd() + '/', '')}: ${test.fullName}`)
      // The cause's first lines (for a property test: its seed and path), where a CI log's tail shows them.
      const lines = (test.failureMessages ?? []).join('\n').split('\n').slice(0, 12)
      for (const line of lines) console.log(`  ${line.slice(0, 300)}`)
    }
  if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
    console.log(
      `failed: ${file.name.replace(process.cwd() + '/', '')}: ${file.message || 'the file did not run'}`,
    )
}
if (vitest) {
  passed += vitest.numPassedTests
  // A failed suite with no failed test (a hook or import error) counts once; otherwise count the tests.
  const reported = vitest.numFailedTests || (vitest.numFailedTestSuites ?? 0)
  failed += reported || (vitestRc !== 0 || vitest.numTotalTests === 0 ? 1 : 0)
} else failed += 1

const playwright = readJson('reports/playwright.json')
if (playwright?.stats) {
  // A test that failed and passed on its retry is flaky: a failure, named, never a pass.
  passed += playwright.stats.expected
  const flaky = flakyTests(playwright)
  for (const name of flaky) console.log(`flaky (failed, then passed on retry): ${name}`)
  for (const suite of playwright.suites ?? [])
    for (const name of failedSpecs(suite)) console.log(`failed: ${name}`)
  const reported = playwright.stats.unexpected + playwright.stats.flaky + (playwright.errors?.length ?? 0)
  failed += reported || (playwrightRc !== 0 || playwright.stats.expected === 0 ? 1 : 0)
} else failed += 1

console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
