import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (file: string) => fs.readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')

/** The node flags of `npm start`, in order. */
function startFlags(): string[] {
  const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start
  return start.split(/\s+/).filter((word) => word.startsWith('--'))
}

/** The node flags of the image's CMD, in order. */
function imageFlags(): string[] {
  const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1]
  if (!cmd) throw new Error('The Dockerfile has no CMD in exec form')
  return (JSON.parse(cmd) as string[]).filter((word) => word.startsWith('--'))
}

describe('how the server is started', () => {
  it('runs with the same node flags from `npm start` and in the Docker image (the capacity bench measures the former)', () => {
    expect(imageFlags()).toEqual(startFlags())
  })

  it('caps the heap and keeps V8 to one helper thread, so its collector leaves the cores to the event loop (ADR 29)', () => {
    expect(startFlags()).toEqual(
      expect.arrayContaining(['--max-old-space-size=256', '--max-semi-space-size=4', '--v8-pool-size=1']),
    )
  })
})
