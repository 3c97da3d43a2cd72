import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const alias = { '~': fileURLToPath(new URL('./app', import.meta.url)) }

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          // Runs after the unit project (vitest needs distinct groups when maxWorkers differ).
          sequence: { groupOrder: 1 },
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'model',
          // The model-based test of the write path (tests/model): after integration, against build/ too.
          sequence: { groupOrder: 2 },
          include: ['tests/model/**/*.test.ts'],
          environment: 'node',
          // Generous: shrinking a failure runs many sequences against the server again.
          testTimeout: 900_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
