import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >
  components: unknown
}
type Answer = { status: number; headers: Headers; json: unknown; text: string }

const ROOT = 'https://storymap.test/openapi.json'

/** `#/components/…` → an absolute reference into the document, so a schema compiles on its own. */
function absoluteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absoluteRefs)
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#') ? ROOT + v : absoluteRefs(v),
      ]),
    )
  }
  return schema
}

/**
 * Checks real answers against an OpenAPI document: the status must be documented for that
 * operation, with the answer's media type, and a JSON body must match its schema (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1). Remembers which operations were seen.
 */
export function answerChecker(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ $id: ROOT, components: doc.components })
  const seen = new Set<string>()

  function check(method: string, template: string, answer: Answer) {
    const m = method.toLowerCase()
    const where = `${method} ${template} answered ${answer.status} ${answer.text.slice(0, 300)}`
    seen.add(`${m} ${template}`)
    const operation = doc.paths[template]?.[m]
    expect(operation, `${method} ${template} is not documented`).toBeDefined()
    const response = operation.responses[String(answer.status)]
    expect(response, `${where}: that status is not documented`).toBeDefined()
    const mediaType = answer.headers.get('content-type')?.split(';')[0] ?? ''
    const content = response.content?.[mediaType]
    expect(content, `${where}: ${mediaType} is not documented for it`).toBeDefined()
    if (mediaType !== 'application/json') return
    const validate = ajv.compile(absoluteRefs(content!.schema) as object)
    const ok = validate(answer.json)
    expect(ok, `${where}\n${ajv.errorsText(validate.errors, { separator: '\n' })}`).toBe(true)
  }

  const unseen = () =>
    Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.keys(methods)
        .map((m) => `${m} ${template}`)
        .filter((key) => !seen.has(key)),
    )
  return { check, unseen }
}
