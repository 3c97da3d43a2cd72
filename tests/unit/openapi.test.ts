import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_PATHS, buildOpenApiDocument } from '~/features/automation/openapi/document'
import { APP_VERSION } from '~/lib/version'

const ROUTES = path.resolve(__dirname, '../../app/routes')
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** `v1.projects.$id.$op.ts` → /^\/v1\/projects\/[^/]+\/[^/]+$/ (Remix's flat-route names). */
function routePattern(file: string): RegExp {
  const name = file.replace(/\.tsx?$/, '')
  const segments = name.split(/\.(?![^[]*\])/).filter((s) => s !== '_index')
  const parts = segments.map((s) => {
    if (s.startsWith('$')) return '[^/]+'
    return s.replace(/\[(.*?)\]/g, '$1').replace(/[.]/g, '\\.')
  })
  return new RegExp(`^/${parts.join('/')}$`)
}

/** The methods a route file really serves: its v1Route handlers, minus the 405 helpers. */
function servedMethods(file: string): string[] {
  const source = fs.readFileSync(path.join(ROUTES, file), 'utf8')
  return METHODS.filter((m) => new RegExp(`\\b${m}: (?!wrongMethod)`).test(source))
}

const routeFiles = fs
  .readdirSync(ROUTES)
  .filter((f) => f.startsWith('v1.') && f !== 'v1.$.ts')
  .map((file) => ({ file, pattern: routePattern(file), methods: servedMethods(file) }))

/** Documented paths with `{id}` made concrete, so they match route patterns. */
const documented = Object.entries(API_PATHS).flatMap(([template, methods]) =>
  Object.keys(methods).map((method) => ({
    template,
    path: template.replace(/\{\w+\}/g, 'x'),
    method: method.toUpperCase(),
  })),
)

describe('the OpenAPI document covers every /v1 route', () => {
  it('finds the route files (the test reads what it should)', () => {
    expect(routeFiles.length).toBeGreaterThan(50)
    expect(routeFiles.find((r) => r.file === 'v1.projects.$id.undo.ts')?.methods).toEqual(['POST'])
    expect(routeFiles.find((r) => r.file === 'v1.$kind.$id.$op.ts')?.methods).toEqual(['POST'])
    expect(routePattern('v1.openapi[.]json.ts').test('/v1/openapi.json')).toBe(true)
  })

  it.each(routeFiles.map((r) => [r.file, r] as const))(
    '%s: each method it serves is documented',
    (_file, route) => {
      for (const method of route.methods) {
        if (route.file === 'v1.openapi[.]json.ts') continue // the document itself
        const found = documented.filter((d) => d.method === method && route.pattern.test(d.path))
        expect(found, `${method} ${route.pattern} is not in the OpenAPI document`).not.toEqual([])
      }
    },
  )

  it('documents no route that does not exist', () => {
    for (const d of documented) {
      const served = routeFiles.some((r) => r.methods.includes(d.method) && r.pattern.test(d.path))
      expect(served, `${d.method} ${d.template} has no route`).toBe(true)
    }
  })
})

describe('the document', () => {
  const doc = buildOpenApiDocument(APP_VERSION)

  it('is OpenAPI 3.1 with both security schemes and the error shape', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.components?.securitySchemes ?? {}).sort()).toEqual(['bearer', 'session'])
    expect(doc.components?.schemas?.Error).toMatchObject({ required: ['error', 'message'] })
  })

  it('says which routes need no login, which refuse tokens, and what a read token may not do', () => {
    expect(doc.paths?.['/v1/users/login']?.post?.security).toEqual([])
    expect(doc.paths?.['/v1/account/tokens']?.post?.security).toEqual([{ session: [] }])
    expect(doc.paths?.['/v1/workspace/tokens']?.get?.security).toEqual([{ session: [] }])
    expect(doc.paths?.['/v1/projects/{id}']?.get?.security).toEqual([{ session: [] }, { bearer: [] }])
    expect(JSON.stringify(doc.paths?.['/v1/features/{id}/rename']?.post?.responses?.['403'])).toContain(
      'token_read_only',
    )
  })

  it('takes request bodies from the schemas the server validates with', () => {
    const body = doc.paths?.['/v1/features/{id}/estimate']?.post?.requestBody
    const schema = (body as { content: Record<string, { schema: Record<string, any> }> }).content[
      'application/json'
    ].schema
    expect(schema.properties.estimate).toMatchObject({ type: 'integer', minimum: 0, maximum: 999 })
    expect(schema.required).toEqual(['estimate'])
    // a feature's size is only a feature's
    expect(doc.paths?.['/v1/milestones/{id}/estimate']).toBeUndefined()
  })

  it('names the version of package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'))
    expect(doc.info.version).toBe(pkg.version)
  })
})
