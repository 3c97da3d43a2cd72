import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/**
 * The house's rules are kept by `npm run lint` (issue 45, docs/architecture.md): each snippet
 * below is linted as if it were a file at that place in the tree, with the project's own config.
 */
const eslint = new ESLint({ cwd: process.cwd() })

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`)
}

describe('lint keeps the floors', () => {
  it("refuses a feature importing another feature's insides, and lets it through the front doors", async () => {
    const inside = await problems(
      'app/features/history/example.server.ts',
      "import { createFeature } from '~/features/board/cards.server'\nexport const f = createFeature\n",
    )
    expect(inside.join('\n')).toMatch(
      /import-x\/no-restricted-paths: .*through its front door: ~\/features\/board/,
    )
    const doors = await problems(
      'app/features/history/example.server.ts',
      [
        "import { executeBoardCommand } from '~/features/board/index.server'",
        "import { titleSchema } from '~/features/board'",
        'export const f = [executeBoardCommand, titleSchema]',
        '',
      ].join('\n'),
    )
    expect(doors).toEqual([])
  }, 60_000)

  it('refuses map/ importing any feature, even through its front door', async () => {
    const found = await problems(
      'app/features/map/example.ts',
      "import { titleSchema } from '~/features/board'\nexport const t = titleSchema\n",
    )
    expect(found.join('\n')).toMatch(/map\/ is the ground floor: it imports no feature/)
  }, 60_000)

  it('lets any feature use the kernel', async () => {
    const found = await problems(
      'app/features/history/example.server.ts',
      "import { executeChange } from '~/features/map/door.server'\nexport const e = executeChange\n",
    )
    expect(found).toEqual([])
  }, 60_000)

  it('refuses a pure rule importing the database, React or Node', async () => {
    const found = await problems(
      'app/features/board/example.ts',
      "import { eq } from 'drizzle-orm'\nimport { useState } from 'react'\nimport fs from 'node:fs'\nexport const x = [eq, useState, fs]\n",
    )
    expect(found.join('\n')).toMatch(/Pure rules use no database/)
    expect(found.join('\n')).toMatch(/Pure rules use no React/)
    expect(found.join('\n')).toMatch(/Pure rules use no Node API/)
  }, 60_000)
})
