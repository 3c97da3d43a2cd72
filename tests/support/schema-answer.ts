import { generate, type JsonSchema } from 'json-schema-faker'

export type { JsonSchema }

/**
 * A model's answer made up from a JSON schema (json-schema-faker, seeded so the same question
 * gets the same answer), valid against that schema. Its free text is made of the words of the
 * question: titles and names are short phrases, other text reads as a sentence, and both keep
 * to the schema's minLength and maxLength. Enums, constants, formats and patterns are the
 * generator's.
 */
export async function answerFromSchema(schema: JsonSchema, question: string): Promise<unknown> {
  const words = wordsOf(question)
  return generate(schema, {
    seed: hash(question),
    alwaysFakeOptionals: true,
    maxDefaultItems: 4,
    maxDepth: 20,
    outputTransform: (value, part, path) => {
      if (typeof value !== 'string' || typeof part !== 'object' || part === null) return value
      if (part.enum || part.const !== undefined || part.format || part.pattern) return value
      return fit(textFor(path, words), part.minLength ?? 0, part.maxLength ?? Infinity, words)
    },
  })
}

/** Words that say little on their own. */
const STOP_WORDS = new Set(
  'the and for with that this from into your our their they them you are was were has have had not but can will its his her who what when where which how all any each more most some such than too very just also only own same about over under then there these those been being does did doing would should could a an of to in on at by or as is it be we us'.split(
    ' ',
  ),
)
const FALLBACK = ['story', 'map', 'customer', 'order', 'release', 'feature', 'team', 'plan']

function wordsOf(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (w) => w.length >= 3 && !STOP_WORDS.has(w) && !/^\d+$/.test(w),
  )
  const unique = [...new Set(words)]
  return unique.length >= 3 ? unique : [...unique, ...FALLBACK]
}

/** FNV-1a, 32 bits: a stable number for a text. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** A phrase for a title or name (`/goals/1/title`), a sentence for anything else. */
function textFor(path: string, words: string[]): string {
  const key =
    path
      .split('/')
      .filter((s) => s && !/^\d+$/.test(s))
      .pop() ?? ''
  const pick = picker(hash(path), words)
  if (/title|name|role/i.test(key))
    return capital([pick(), pick(), ...(words.length % 2 ? [pick()] : [])].join(' '))
  return `${capital(pick())} the ${pick()} so that the ${pick()} and the ${pick()} work as people expect.`
}

/** Draws words without repeating one until all were drawn (a seeded shuffle). */
function picker(seed: number, words: string[]): () => string {
  const order = [...words]
  let state = seed || 1
  for (let i = order.length - 1; i > 0; i--) {
    state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) >>> 0
    const j = state % (i + 1)
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  let next = 0
  return () => order[next++ % order.length]
}

/** The text held to the schema's lengths: cut at a word when too long, made longer with words. */
function fit(text: string, min: number, max: number, words: string[]): string {
  let out = text
  for (let i = 0; out.length < min; i++) out += ` ${words[i % words.length]}`
  if (out.length > max) {
    const cut = out.slice(0, max)
    const space = cut.lastIndexOf(' ')
    out = space >= Math.max(min, 1) ? cut.slice(0, space) : cut
  }
  return out.length >= min ? out : out.padEnd(min, 'x')
}
