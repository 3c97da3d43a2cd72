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

const vitest = readJson('reports/vitest.json')
if (vitest) {
  passed += vitest.numPassedTests
  failed += vitest.numFailedTests + (vitest.numFailedTestSuites ?? 0)
} else failed += 1

const playwright = readJson('reports/playwright.json')
if (playwright?.stats) {
  passed += playwright.stats.expected + playwright.stats.flaky
  failed += playwright.stats.unexpected
  if (playwright.errors?.length) failed += playwright.errors.length
} else failed += 1

console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
