import { defineConfig, devices } from '@playwright/test'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Debian's Chromium (CONTRACT §1): CHROMIUM_PATH, else /usr/bin/chromium, else Playwright's own. */
function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter(Boolean) as string[]
  return candidates.find((p) => fs.existsSync(p))
}

const PORT = Number(process.env.E2E_PORT ?? 3210)
// The main process starts the server; workers re-read this file but never use the path.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-e2e-'))
process.env.E2E_DATA_DIR = dataDir

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  // Generous limits: this machine kind's speed varies by up to 2.4× from day to day.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromiumPath(),
          args: [
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node build/server.js',
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    // The server's errors show in the run's output (a 500 a test meets is then explained there).
    stdout: 'pipe',
    timeout: 30_000,
    env: {
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_PATH: path.join(dataDir, 'storymap.db'),
      RATE_LIMIT: 'off',
      // The webhooks test's receiver listens on loopback, over http.
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      // GitHub Issues sync talks to the fake GitHub the github spec starts on the next port.
      GITHUB_API_URL: `http://127.0.0.1:${PORT + 1}`,
      GITHUB_POLL_SECONDS: '1',
      TRACKER_POLL_SECONDS: '1',
      TRACKER_ALLOW_HTTP: 'true',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'error',
    },
  },
})
