import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe('README', () => {
  it('starts with what Storymap is, then the commands to run it and to test it (CONTRACT §1), then the features', () => {
    const headings = readme.split('\n').filter((line) => /^##? /.test(line))
    expect(headings.slice(0, 4)).toEqual(['# Storymap', '## Run it', '## Test it', '## Features'])
    const intro = readme.slice(0, readme.indexOf('## Run it'))
    expect(intro).toMatch(/^# Storymap\n\nTeam story mapping that small teams host themselves\./)
    const blocks = [...readme.matchAll(/```bash\n(.+)\n```/g)].map((m) => m[1])
    expect(blocks.slice(0, 2)).toEqual(['npm ci && npm run build && npm start', 'npm ci && npm test'])
    expect(readme.indexOf('npm ci && npm test')).toBeLessThan(readme.indexOf('!['))
  })
})
