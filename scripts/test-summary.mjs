// Prints one plain line over every runner: "N passed, N failed" (exit 1 when anything failed).
import fs from 'node:fs'

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

let passed = 0
let failed = Number(process.argv[2] ?? 0)
// A runner that exited non-zero without reporting a failed test (a crash, a config error,
// no test run at all) still counts as one failure.
const [vitestRc, playwrightRc] = [Number(process.argv[3] ?? 0), Number(process.argv[4] ?? 0)]

const vitest = readJson('reports/vitest.json')
if (vitest) {
  passed += vitest.numPassedTests
  // A failed suite with no failed test (a hook or import error) counts once; otherwise count the tests.
  const reported = vitest.numFailedTests || (vitest.numFailedTestSuites ?? 0)
  failed += reported || (vitestRc !== 0 || vitest.numTotalTests === 0 ? 1 : 0)
} else failed += 1

const playwright = readJson('reports/playwright.json')
if (playwright?.stats) {
  passed += playwright.stats.expected + playwright.stats.flaky
  const reported = playwright.stats.unexpected + (playwright.errors?.length ?? 0)
  failed += reported || (playwrightRc !== 0 || playwright.stats.expected === 0 ? 1 : 0)
} else failed += 1

console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
