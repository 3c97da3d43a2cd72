import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Every layout route (a route with routes nested under it, by Remix's flat file names) has an
 * error boundary of its own, so a failing child shows what went wrong inside the app's frame
 * instead of blanking it (issue 32).
 */
const ROUTES = path.resolve(__dirname, '../../app/routes')
const files = fs.readdirSync(ROUTES).filter((f) => /\.tsx?$/.test(f))
const routeName = (file: string) => file.replace(/\.tsx?$/, '')
const names = files.map(routeName)
// A resource route (no component: the JSON API) renders nothing, so it needs no boundary.
const rendersPage = (file: string) =>
  /export default\b/.test(fs.readFileSync(path.join(ROUTES, file), 'utf8'))
const layouts = files.filter((file) => {
  const name = routeName(file)
  return rendersPage(file) && names.some((other) => other !== name && other.startsWith(`${name}.`))
})

describe('layout routes', () => {
  it('are found (the test reads the routes it means)', () => {
    expect(layouts.map(routeName)).toEqual(
      expect.arrayContaining(['$workspace', 'account', '$workspace.projects.$projectId', 'link.$key']),
    )
  })
  for (const file of layouts) {
    it(`${file} exports an ErrorBoundary`, () => {
      const source = fs.readFileSync(path.join(ROUTES, file), 'utf8')
      expect(source).toMatch(
        /export (function ErrorBoundary|\{[^}]*\bas ErrorBoundary\b[^}]*\}|const ErrorBoundary)/,
      )
    })
  }
  it('and the root', () => {
    expect(fs.readFileSync(path.resolve(ROUTES, '../root.tsx'), 'utf8')).toMatch(/as ErrorBoundary\b/)
  })
})
