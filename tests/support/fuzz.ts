import fc from 'fast-check'
import type { Call } from './board'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Arbitraries for fuzzing the JSON API. The routes come from the route files themselves
 * (app/routes/v1.*.ts), so a route added later is fuzzed without touching this file.
 */
export function v1RoutePatterns(): string[] {
  const dir = path.resolve(__dirname, '../../app/routes')
  return fs
    .readdirSync(dir)
    .filter((f) => /^v1\..*\.tsx?$/.test(f))
    .map(
      (f) =>
        '/' +
        f
          .replace(/\.tsx?$/, '')
          .split('.')
          .filter((s) => s !== '_index')
          .join('/'),
    )
}

/** Real values the fuzzer mixes with random ones, so some calls reach the models. */
export type Pools = { ids: string[]; emails: string[]; keys: string[]; workspaceIds: string[] }

const KINDS = ['milestones', 'workflows', 'subworkflows', 'features', 'projects', 'personas', 'gizmos']
const OPS = [
  'rename',
  'description',
  'open',
  'close',
  'color',
  'annotations',
  'move',
  'estimate',
  'post',
  'level',
]
const FIELDS = [
  'title',
  'description',
  'projectId',
  'workflowId',
  'subWorkflowId',
  'milestoneId',
  'featureId',
  'toWorkflowId',
  'toSubWorkflowId',
  'toMilestoneId',
  'index',
  'estimate',
  'color',
  'annotations',
  'post',
  'avatar',
  'name',
  'role',
  'workflowPersonaId',
  'personaId',
  'email',
  'password',
  'workspaceName',
  'level',
  'value',
  'topic',
  'body',
  'sender',
  'key',
  'invitation',
  'plan',
  'quantity',
  'euVat',
  'externalBillingEmail',
  '__proto__',
  'constructor',
]
const WORDS = [
  'RED',
  'none',
  'RISKY,BLOCKED',
  'avatar01',
  'VIEWER',
  'OWNER',
  'general',
  'basic',
  '',
  ' ',
  'null',
]

const weirdString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '\u0000',
    'x'.repeat(10_001),
    '😀'.repeat(200),
  ),
)

export function valueArb(pools: Pools) {
  const scalar = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...pools.ids) },
    { weight: 3, arbitrary: fc.constantFrom(...WORDS) },
    { weight: 2, arbitrary: weirdString },
    fc.uuid(),
    fc.integer({ min: -2, max: 1000 }),
    fc.constantFrom(1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(...pools.emails),
  )
  return fc.oneof(
    { weight: 6, arbitrary: scalar },
    fc.array(scalar, { maxLength: 3 }),
    fc.dictionary(fc.string(), scalar, { maxKeys: 2 }),
  )
}

export function bodyArb(pools: Pools) {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 10,
      arbitrary: fc
        .dictionary(fc.constantFrom(...FIELDS), valueArb(pools), { maxKeys: 6 })
        .map((o) => JSON.stringify(o)),
    },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    fc.string({ maxLength: 60 }),
    fc.constantFrom('{"title":', '[]', 'null', '{"a":1}garbage', 'title=x&projectId=y', '\u0000\u0001'),
  )
}

function segmentArb(name: string, pools: Pools) {
  const random = weirdString.map((s) => encodeURIComponent(s))
  switch (name) {
    case '$kind':
      return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...KINDS) }, random)
    case '$op':
      return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...OPS) }, random)
    case '$email':
      return fc.oneof(
        fc.constantFrom(...pools.emails).map(encodeURIComponent),
        fc.emailAddress().map(encodeURIComponent),
        random,
      )
    case '$key':
      return fc.oneof(fc.constantFrom(...pools.keys), random)
    case '$':
      return fc
        .array(fc.oneof(fc.constantFrom(...KINDS, ...OPS), random), { minLength: 1, maxLength: 4 })
        .map((s) => s.join('/'))
    default:
      return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...pools.ids) }, fc.uuid(), random)
  }
}

export function pathArb(pools: Pools, patterns = v1RoutePatterns()) {
  return fc.constantFrom(...patterns).chain((pattern) =>
    fc
      .tuple(
        ...pattern
          .split('/')
          .slice(1)
          .map((segment) => (segment.startsWith('$') ? segmentArb(segment, pools) : fc.constant(segment))),
      )
      .chain((segments) =>
        fc.tuple(
          fc.constant('/' + segments.join('/')),
          fc.constantFrom('', '', '', '/', '?x=1', '?_data=root'),
        ),
      )
      .map(([p, suffix]) => ({ pattern, path: p + suffix })),
  )
}

export function headersArb(pools: Pools) {
  return fc
    .record(
      {
        'Content-Type': fc.oneof(
          { weight: 8, arbitrary: fc.constant('application/json') },
          fc.constantFrom(
            'application/json; charset=utf-16',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
          ),
        ),
        Workspace: fc.oneof(
          { weight: 12, arbitrary: fc.constant(pools.workspaceIds[0]) },
          { weight: 2, arbitrary: fc.constantFrom(...pools.workspaceIds) },
          fc.uuid(),
          fc.constantFrom('', 'not-a-uuid', '00000000-0000-0000-0000-000000000000'),
          fc.constant(undefined),
        ),
        Accept: fc.constantFrom('application/json', 'text/html', '*/*', 'text/x-script'),
        'X-Forwarded-For': fc.constantFrom('203.0.113.9', 'not-an-ip', '::1, 10.0.0.1'),
        'X-Forwarded-Host': fc.constantFrom('evil.example', 'bad host', 'localhost:99999'),
        'X-Forwarded-Proto': fc.constantFrom('https', 'javascript', ''),
      },
      { requiredKeys: ['Content-Type', 'Workspace'] },
    )
    .map(
      (h) =>
        Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
    )
}

export type FuzzCall = { method: string; path: string; body: string | undefined }

/**
 * A valid call of the API (from `templates`), changed in at most one place: a field replaced by a
 * random value or removed, or the id in the path swapped. Reaches the models far more often than
 * random paths do, so accepted and refused writes both get exercised.
 */
export function mutatedCallArb(templates: Call[], pools: Pools) {
  return fc.constantFrom(...templates).chain((call) => {
    const body = (call.body ?? {}) as Record<string, unknown>
    const fields = Object.keys(body)
    const keep = fc.constant<FuzzCall>({
      method: call.method,
      path: call.path,
      body: call.body === undefined ? undefined : JSON.stringify(body),
    })
    const variants = [keep, keep]
    if (fields.length > 0) {
      variants.push(
        fc.tuple(fc.constantFrom(...fields), valueArb(pools)).map(([field, value]) => ({
          method: call.method,
          path: call.path,
          body: JSON.stringify({ ...body, [field]: value }),
        })),
        fc.constantFrom(...fields).map((field) => {
          const rest = { ...body }
          delete rest[field]
          return { method: call.method, path: call.path, body: JSON.stringify(rest) }
        }),
      )
    }
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
    if (uuid.test(call.path)) {
      variants.push(
        fc.oneof(fc.constantFrom(...pools.ids), fc.uuid()).map((id) => ({
          method: call.method,
          path: call.path.replace(uuid, id),
          body: call.body === undefined ? undefined : JSON.stringify(body),
        })),
      )
    }
    return fc.oneof(...variants)
  })
}
