import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  adfToMarkdown,
  canonicalMarkdown,
  markdownToAdf,
  sameMarkdown,
  type AdfDoc,
  type AdfNode,
} from '~/features/trackers/markdown-adf'

/**
 * A description pushed to Jira and read back is no change (CONTRACT §14): Markdown → ADF →
 * Markdown gives the same text for paragraphs, headings, bold, italic, inline code, code blocks,
 * links, bullet and numbered lists and block quotes, and ADF → Markdown → ADF gives the same
 * document.
 */

const word = fc.constantFrom(
  'story',
  'map',
  'Cart',
  'pay',
  'x1',
  'release',
  'Goal',
  'user',
  'é',
  'naïve',
  '42',
)
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '))
const url = fc.constantFrom('https://example.com', 'https://example.com/a/b?c=1', 'http://localhost:3000/x#y')
const inline = fc.oneof(
  word,
  words.map((w) => `**${w}**`),
  words.map((w) => `*${w}*`),
  words.map((w) => `\`${w}\``),
  fc.tuple(words, url).map(([w, u]) => `[${w}](${u})`),
  fc.tuple(word, words, word).map(([a, b, c]) => `**${a} *${b}* ${c}**`),
  fc.tuple(word, word, url).map(([a, b, u]) => `**${a} [${b}](${u})**`),
  fc.tuple(word, word, url).map(([a, b, u]) => `[**${a}** ${b}](${u})`),
  fc.tuple(word, word, url, word).map(([a, b, u, c]) => `**${a} *${b} [${c}](${u}) ${c}* ${a}**`),
)
const line = fc.array(inline, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '))
const code = fc
  .tuple(
    fc.constantFrom('', 'js', 'ts', 'sql'),
    fc.array(fc.oneof(words, fc.constant('')), { minLength: 1, maxLength: 4 }),
  )
  .filter(([, lines]) => lines.some((l) => l !== ''))
  .map(([lang, lines]) => `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``)

type Block = { kind: 'text' | 'bullets' | 'numbers' | 'quote' | 'quotedList' | 'code'; md: string }
const block: fc.Arbitrary<Block> = fc.oneof(
  line.map((md) => ({ kind: 'text' as const, md })),
  fc
    .tuple(fc.integer({ min: 1, max: 3 }), line)
    .map(([n, md]) => ({ kind: 'text' as const, md: `${'#'.repeat(n)} ${md}` })),
  fc
    .array(line, { minLength: 1, maxLength: 4 })
    .map((items) => ({ kind: 'bullets' as const, md: items.map((i) => `- ${i}`).join('\n') })),
  fc
    .array(line, { minLength: 1, maxLength: 4 })
    .map((items) => ({ kind: 'numbers' as const, md: items.map((i, n) => `${n + 1}. ${i}`).join('\n') })),
  fc.tuple(line, fc.array(line, { minLength: 1, maxLength: 3 })).map(([outer, inner]) => ({
    kind: 'bullets' as const,
    md: `- ${outer}\n${inner.map((i) => `  - ${i}`).join('\n')}`,
  })),
  fc
    .array(line, { minLength: 1, maxLength: 3 })
    .map((paras) => ({ kind: 'quote' as const, md: paras.map((p) => `> ${p}`).join('\n>\n') })),
  fc
    .array(line, { minLength: 1, maxLength: 3 })
    .map((items) => ({ kind: 'quotedList' as const, md: items.map((i) => `> - ${i}`).join('\n') })),
  code.map((md) => ({ kind: 'code' as const, md })),
)
/**
 * A description in the style Storymap writes back. Two lists or quotes in a row would be one (and a
 * list right after a list is written with `*`), so blocks of a kind do not follow each other.
 */
const KINDS: Record<Block['kind'], string[]> = {
  text: [],
  code: [],
  bullets: ['bullets'],
  numbers: ['numbers'],
  quote: ['quote'],
  quotedList: ['quote', 'bullets'],
}
const clash = (a: Block, b: Block) => KINDS[a.kind].some((k) => KINDS[b.kind].includes(k))
const description = fc.array(block, { minLength: 1, maxLength: 6 }).map((blocks) =>
  blocks
    .reduce<Block[]>(
      (kept, b) => (kept.length > 0 && clash(b, kept[kept.length - 1]) ? kept : [...kept, b]),
      [],
    )
    .map((b) => b.md)
    .join('\n\n'),
)

/** An ADF document as compared: neighbouring text with the same marks is one text, marks in one order. */
function normal(nodes: AdfNode[]): AdfNode[] {
  const out: AdfNode[] = []
  for (const node of nodes) {
    const { attrs, content, marks, ...rest } = node
    const copy: AdfNode = { ...rest }
    if (attrs && !(node.type === 'codeBlock' && attrs.language === 'text')) copy.attrs = attrs
    if (content) copy.content = normal(content)
    if (marks?.length) copy.marks = [...marks].sort((a, b) => a.type.localeCompare(b.type))
    const prev = out[out.length - 1]
    if (
      prev?.type === 'text' &&
      copy.type === 'text' &&
      JSON.stringify(prev.marks) === JSON.stringify(copy.marks)
    )
      prev.text = `${prev.text}${copy.text}`
    else out.push(copy)
  }
  return out
}

describe('Markdown → ADF → Markdown', () => {
  it.each([
    ['paragraphs', 'One.\n\nTwo.'],
    ['headings', '# One\n\n## Two\n\n### Three'],
    ['bold, italic, inline code', 'Some **bold**, *italic* and `code`.'],
    ['bold around italic and links', '**bold *both* and [a link](https://example.com) bold**'],
    ['links', 'See [the docs](https://example.com/a?b=1).'],
    ['code blocks', '```ts\nconst a = 1\n\nconst b = 2\n```\n\n```\nplain\n```'],
    ['bullet lists', '- one\n- **two**\n  - nested\n- three'],
    ['numbered lists', '1. one\n2. two\n\n   more of two\n3. three'],
    ['block quotes', '> quoted\n>\n> - a list in it'],
    ['escaped characters', 'snake_case and 2*3*4, a \\*star\\*'],
  ])('gives back the same text: %s', (_name, md) => {
    expect(adfToMarkdown(markdownToAdf(md))).toBe(md)
  })

  it('gives back the same text for any description of those', () => {
    fc.assert(
      fc.property(description, (md) => {
        expect(adfToMarkdown(markdownToAdf(md))).toBe(md)
      }),
      { numRuns: 300 },
    )
  })

  it('reads other spellings as the same description, once', () => {
    const cases: [string, string][] = [
      ['* star\n* list', '- star\n- list'],
      ['_under_ and __strong__', '*under* and **strong**'],
      ['Setext\n======', '# Setext'],
      ['a soft\nbreak', 'a soft break'],
      [
        'a line\n**then bold**, a\n[link](https://e.com) and\n`code`',
        'a line **then bold**, a [link](https://e.com) and `code`',
      ],
      ['1) paren', '1. paren'],
      ['https://example.com/bare', '<https://example.com/bare>'],
      ['Fish &amp; chips, &#x41;&#66;C', 'Fish & chips, ABC'],
      ['x &copy; `&amp;`', 'x © `&amp;`'],
      ['```ts extra words\nx\n```', '```ts\nx\n```'],
      ['a\n_#_', 'a *#*'],
    ]
    for (const [written, back] of cases) {
      expect(canonicalMarkdown(written)).toBe(back)
      expect(canonicalMarkdown(back)).toBe(back)
      expect(sameMarkdown(written, back)).toBe(true)
    }
    expect(sameMarkdown('one', 'two')).toBe(false)
  })

  it('settles any Markdown-like text after one trip', () => {
    const text = fc.string({ unit: fc.constantFrom(...'ab *_`#->1.\\\n[]()&;:/'.split('')), maxLength: 60 })
    fc.assert(
      fc.property(text, (md) => {
        const once = canonicalMarkdown(md)
        expect(canonicalMarkdown(once)).toBe(once)
      }),
      { numRuns: 500 },
    )
  })

  it('escapes & in a link address and keeps the address', () => {
    const md = 'See [docs](https://e.com/a?b=1&c=2).'
    const href = (m: string) => markdownToAdf(m).content[0].content![1].marks![0].attrs!.href
    expect(canonicalMarkdown(md)).toBe('See [docs](https://e.com/a?b=1\\&c=2).')
    expect(href(md)).toBe('https://e.com/a?b=1&c=2')
    expect(href(canonicalMarkdown(md))).toBe('https://e.com/a?b=1&c=2')
    expect(sameMarkdown(md, canonicalMarkdown(md))).toBe(true)
  })

  it('treats an empty description as an empty document', () => {
    expect(markdownToAdf('  \n')).toEqual({ type: 'doc', version: 1, content: [] })
    expect(adfToMarkdown({ type: 'doc', version: 1, content: [] })).toBe('')
    expect(adfToMarkdown(null)).toBe('')
    expect(adfToMarkdown('wiki *markup*')).toBe('')
  })
})

describe('ADF → Markdown → ADF', () => {
  it('gives back the same document for any description of the kinds above', () => {
    fc.assert(
      fc.property(description, (md) => {
        const adf = markdownToAdf(md)
        expect(normal(markdownToAdf(adfToMarkdown(adf)).content)).toEqual(normal(adf.content))
      }),
      { numRuns: 300 },
    )
  })

  const text = (t: string, ...marks: string[]): AdfNode =>
    marks.length
      ? { type: 'text', text: t, marks: marks.map((type) => ({ type })) }
      : { type: 'text', text: t }
  const doc = (...content: AdfNode[]): AdfDoc => ({ type: 'doc', version: 1, content })
  const para = (...content: AdfNode[]): AdfNode => ({ type: 'paragraph', content })

  it.each<[string, AdfDoc, string]>([
    [
      'marks in either order',
      doc(para(text('a '), text('b', 'em', 'strong'), text(' c', 'strong'))),
      'a **_b_ c**',
    ],
    [
      'bold with italic inside, as Jira writes it',
      doc(para(text('bold ', 'strong'), text('both', 'em', 'strong'), text(' bold', 'strong'))),
      '**bold *both* bold**',
    ],
    ['spaces at the edge of bold', doc(para(text('a'), text(' b ', 'strong'), text('c'))), 'a **b** c'],
    [
      'a link with bold text',
      doc(
        para({
          type: 'text',
          text: 'x',
          marks: [{ type: 'strong' }, { type: 'link', attrs: { href: 'https://e.com' } }],
        }),
      ),
      '[**x**](https://e.com)',
    ],
    [
      'a code block without attributes',
      doc({ type: 'codeBlock', content: [text('x = 1')] }),
      '```\nx = 1\n```',
    ],
    [
      'a status lozenge as its text',
      doc(para(text('state: '), { type: 'status', attrs: { text: 'DONE', color: 'green' } })),
      'state: DONE',
    ],
    ['a mention', doc(para({ type: 'mention', attrs: { id: 'abc', text: 'Ada' } })), '@Ada'],
    [
      'an unknown node by its content',
      doc({ type: 'bodiedExtension', attrs: {}, content: [para(text('inside'))] }),
      'inside',
    ],
    [
      'an image from the web as a link, a Jira file as nothing',
      doc(
        {
          type: 'mediaSingle',
          content: [{ type: 'media', attrs: { type: 'external', url: 'https://e.com/i.png', alt: 'shot' } }],
        },
        {
          type: 'mediaSingle',
          content: [{ type: 'media', attrs: { type: 'file', id: 'f1', collection: 'c' } }],
        },
      ),
      '[shot](https://e.com/i.png)',
    ],
    [
      'a table, one line per cell',
      doc({
        type: 'table',
        content: [
          { type: 'tableRow', content: [{ type: 'tableHeader', content: [para(text('h'))] }] },
          { type: 'tableRow', content: [{ type: 'tableCell', content: [para(text('a')), para(text('b'))] }] },
        ],
      }),
      '| h   |\n| --- |\n| a b |',
    ],
    ['a hard break', doc(para(text('a'), { type: 'hardBreak' }, text('b'))), 'a\\\nb'],
    ['strike', doc(para(text('gone', 'strike'))), '~~gone~~'],
  ])('reads %s', (_name, adf, md) => {
    expect(adfToMarkdown(adf)).toBe(md)
    expect(canonicalMarkdown(md)).toBe(md)
  })
})
