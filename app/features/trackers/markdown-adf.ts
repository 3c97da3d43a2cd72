import { markdownToAdf as marklassian } from 'marklassian'
import type { Nodes, PhrasingContent, Root } from 'mdast'
import { fromADF } from 'mdast-util-from-adf'
import { gfmToMarkdown } from 'mdast-util-gfm'
import { toMarkdown, type Options } from 'mdast-util-to-markdown'
import { decodeString } from 'micromark-util-decode-string'

/**
 * Markdown ↔ Atlassian Document Format for Jira descriptions (CONTRACT §14, ADR 0036-markdown-adf).
 * Markdown → ADF is marklassian's (patched: patches/marklassian+1.2.1.patch); ADF → Markdown is
 * mdast-util-from-adf (ADF → mdast), then mdast-util-to-markdown with mdast-util-gfm. The glue here
 * only makes the round trip stable: character references read as CommonMark reads them, ADF nodes
 * the mdast side cannot read kept from stopping the conversion, and, because ADF marks are flat,
 * bold, italic, strike and links nested back the way a person writes them.
 */

export type AdfMark = { type: string; attrs?: Record<string, unknown> }
export type AdfNode = {
  type: string
  attrs?: Record<string, unknown>
  content?: AdfNode[]
  marks?: AdfMark[]
  text?: string
}
export type AdfDoc = { type: 'doc'; version: 1; content: AdfNode[] }

/** The Markdown style written back: what Storymap's own descriptions and most people use. */
const STYLE: Options = {
  bullet: '-',
  emphasis: '*',
  strong: '*',
  fence: '`',
  fences: true,
  rule: '-',
  listItemIndent: 'one',
  incrementListMarker: true,
}

/** An empty document, as Jira takes it. */
export const emptyAdf = (): AdfDoc => ({ type: 'doc', version: 1, content: [] })

/** A Markdown description as an ADF document. */
export function markdownToAdf(markdown: string): AdfDoc {
  if (markdown.trim() === '') return emptyAdf()
  const doc = marklassian(markdown.replace(/\r\n?/g, '\n')) as AdfDoc
  return { ...doc, content: decoded(doc.content) }
}

/**
 * Text with its character references read (`&amp;` is `&`), as CommonMark reads it: marklassian
 * keeps them as written, and mdast-util-to-markdown writes some characters that way, so they would
 * come back as that text and grow on every trip. Code is taken as written.
 */
function decoded(nodes: AdfNode[]): AdfNode[] {
  return nodes.map((node) => {
    if (node.type === 'codeBlock') return node
    if (node.type === 'text' && node.text && !node.marks?.some((m) => m.type === 'code'))
      return { ...node, text: decodeString(node.text) }
    return node.content ? { ...node, content: decoded(node.content) } : node
  })
}

/** An ADF document (as Jira sends it, or null) as Markdown; anything that is not a document is no text. */
export function adfToMarkdown(doc: unknown): string {
  if (!isAdfDoc(doc)) return ''
  const content = readable(doc.content)
  if (content.length === 0) return ''
  const tree = fromADF({ type: 'doc', version: 1, content } as Parameters<
    typeof fromADF
  >[0]) as unknown as Root
  nestMarks(tree)
  return toMarkdown(tree, { ...STYLE, extensions: [gfmToMarkdown()] }).replace(/\s+$/, '')
}

/** Markdown as it comes back from Jira after a push: the form two descriptions are compared in. */
export function canonicalMarkdown(markdown: string): string {
  return adfToMarkdown(markdownToAdf(markdown))
}

/** Whether two Markdown texts are the same description once they have been through Jira. */
export function sameMarkdown(a: string, b: string): boolean {
  return a === b || canonicalMarkdown(a) === canonicalMarkdown(b)
}

export function isAdfDoc(value: unknown): value is AdfDoc {
  const doc = value as AdfDoc | null
  return typeof doc === 'object' && doc !== null && doc.type === 'doc' && Array.isArray(doc.content)
}

// ---- ADF the mdast side can read

/** The node types mdast-util-from-adf converts; it refuses a document with any other. */
const READABLE = new Set([
  'blockCard', 'blockquote', 'bulletList', 'codeBlock', 'date', 'decisionItem', 'decisionList', 'embedCard',
  'emoji', 'expand', 'hardBreak', 'heading', 'inlineCard', 'layoutColumn', 'layoutSection', 'listItem', 'media',
  'mediaGroup', 'mediaSingle', 'mention', 'nestedExpand', 'orderedList', 'panel', 'paragraph', 'rule', 'table',
  'tableCell', 'tableHeader', 'tableRow', 'taskItem', 'taskList', 'text',
]) // prettier-ignore

/** marklassian's language for a code block that had none. */
const NO_LANGUAGE = 'text'

/**
 * A copy of the nodes that mdast-util-from-adf takes: a status lozenge becomes its text, other
 * unknown nodes give their content (or nothing), a code block's text is one piece, and marklassian's
 * stand-in language goes.
 */
function readable(nodes: readonly AdfNode[]): AdfNode[] {
  const out: AdfNode[] = []
  for (const node of joinTexts(nodes)) {
    if (!node || typeof node.type !== 'string') continue
    if (node.type === 'status') {
      const text = String(node.attrs?.text ?? '')
      if (text !== '') out.push({ type: 'text', text })
      continue
    }
    if (!READABLE.has(node.type)) {
      if (node.content) out.push(...readable(node.content))
      continue
    }
    if (node.type === 'codeBlock') {
      const text = (node.content ?? []).map((n) => n.text ?? '').join('')
      // A language is one word (Markdown's info string gives the first; the rest cannot be written back).
      const language =
        typeof node.attrs?.language === 'string' ? node.attrs.language.trim().split(/\s+/)[0] : ''
      out.push({
        type: 'codeBlock',
        attrs: language !== '' && language !== NO_LANGUAGE ? { language } : {},
        content: text === '' ? [] : [{ type: 'text', text }],
      })
      continue
    }
    if (node.type === 'text' && !node.text) continue
    if (node.type === 'mediaSingle' || node.type === 'mediaGroup' || node.type === 'media') {
      out.push(...mediaLinks(node))
      continue
    }
    if ((node.type === 'paragraph' || node.type === 'heading') && node.content) {
      out.push({ ...node, content: trimEdges(readable(node.content)) })
      continue
    }
    if (node.type === 'tableCell' || node.type === 'tableHeader') {
      out.push({ ...node, content: [{ type: 'paragraph', content: cellLine(node.content ?? []) }] })
      continue
    }
    out.push(node.content ? { ...node, content: readable(node.content) } : node)
  }
  return out
}

/** Neighbouring texts with the same marks as one text (mdast-util-to-markdown escapes each on its own). */
function joinTexts(nodes: readonly AdfNode[]): AdfNode[] {
  const out: AdfNode[] = []
  for (const node of nodes) {
    const prev = out[out.length - 1]
    if (prev?.type === 'text' && node?.type === 'text' && sameMarks(prev.marks, node.marks))
      out[out.length - 1] = { ...prev, text: `${prev.text ?? ''}${node.text ?? ''}` }
    else out.push(node)
  }
  return out
}

const markKey = (marks: AdfMark[] | undefined) =>
  JSON.stringify(
    (marks ?? [])
      .map((m) => [m.type, m.attrs ?? {}])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  )
const sameMarks = (a: AdfMark[] | undefined, b: AdfMark[] | undefined) => markKey(a) === markKey(b)

/** An image from the web as a link to it (Markdown has no ADF media); a file attached in Jira as nothing. */
function mediaLinks(node: AdfNode): AdfNode[] {
  if (node.type !== 'media') return (node.content ?? []).flatMap(mediaLinks)
  const url = node.attrs?.type === 'external' ? String(node.attrs.url ?? '') : ''
  if (url === '') return []
  const text = String(node.attrs?.alt ?? '') || url
  return [
    { type: 'paragraph', content: [{ type: 'text', text, marks: [{ type: 'link', attrs: { href: url } }] }] },
  ]
}

/**
 * Spaces at the start or end of a block or of a line (around a hard break), which Markdown cannot
 * keep (mdast-util-to-markdown would write them as `&#x20;`).
 */
function trimEdges(inline: AdfNode[]): AdfNode[] {
  const out = inline.map((n) => ({ ...n }))
  const plain = (n: AdfNode) => n.type === 'text' && !n.marks?.some((m) => m.type === 'code')
  /** Trims from `start` in a direction until some text is left, a line ends, or code comes. */
  const trimFrom = (start: number, step: 1 | -1) => {
    for (let i = start; i >= 0 && i < out.length && plain(out[i]); i += step) {
      out[i].text = step === 1 ? out[i].text!.replace(/^\s+/, '') : out[i].text!.replace(/\s+$/, '')
      if (out[i].text !== '') return
    }
  }
  trimFrom(0, 1)
  trimFrom(out.length - 1, -1)
  out.forEach((n, i) => {
    if (n.type !== 'hardBreak') return
    trimFrom(i - 1, -1)
    trimFrom(i + 1, 1)
  })
  return out.filter((n) => n.type !== 'text' || n.text !== '')
}

/** A table cell's paragraphs as one line: a Markdown table cell holds no more. */
function cellLine(blocks: readonly AdfNode[]): AdfNode[] {
  const space: AdfNode = { type: 'text', text: ' ' }
  const lines = readable(blocks).map((block) =>
    block.type === 'paragraph' || block.type === 'heading' ? (block.content ?? []) : [],
  )
  return lines
    .filter((line) => line.length > 0)
    .flatMap((line, i) => (i === 0 ? line : [space, ...line]))
    .map((n) => (n.type === 'hardBreak' ? space : n))
}

// ---- nesting flat marks

type Mark = { type: 'strong' | 'emphasis' | 'delete' | 'link'; url?: string }
type Segment = { leaf: PhrasingContent; marks: Mark[] }

/** When two marks cover the same run, the first here goes outside. */
const OUTER_FIRST: Mark['type'][] = ['link', 'strong', 'emphasis', 'delete']
const sameMark = (a: Mark, b: Mark) => a.type === b.type && a.url === b.url

/** Rebuilds the phrasing content of every block so each mark covers the longest run it can. */
function nestMarks(node: Nodes) {
  if (!('children' in node)) return
  const children = node.children as Nodes[]
  if (children.some(isMarked)) {
    const segments = children.flatMap((child) => flatten(child as PhrasingContent, []))
    ;(node as { children: PhrasingContent[] }).children = build(segments)
    return
  }
  for (const child of children) nestMarks(child)
}

const isMarked = (node: Nodes) =>
  node.type === 'strong' || node.type === 'emphasis' || node.type === 'delete' || node.type === 'link'

function flatten(node: PhrasingContent, marks: Mark[]): Segment[] {
  if (node.type === 'strong' || node.type === 'emphasis' || node.type === 'delete' || node.type === 'link') {
    const mark: Mark = node.type === 'link' ? { type: 'link', url: node.url } : { type: node.type }
    return node.children.flatMap((child) => flatten(child, [...marks, mark]))
  }
  return [{ leaf: node, marks }]
}

function build(segments: Segment[]): PhrasingContent[] {
  const out: PhrasingContent[] = []
  let i = 0
  while (i < segments.length) {
    const { leaf, marks } = segments[i]
    if (marks.length === 0) {
      out.push(leaf)
      i++
      continue
    }
    const reach = (mark: Mark) => {
      let j = i
      while (j < segments.length && segments[j].marks.some((m) => sameMark(m, mark))) j++
      return j
    }
    const ordered = [...marks].sort((a, b) => OUTER_FIRST.indexOf(a.type) - OUTER_FIRST.indexOf(b.type))
    const mark = ordered.reduce((best, m) => (reach(m) > reach(best) ? m : best))
    const end = reach(mark)
    const inner = segments
      .slice(i, end)
      .map((s) => ({ leaf: s.leaf, marks: s.marks.filter((m) => !sameMark(m, mark)) }))
    out.push(...wrap(mark, build(inner)))
    i = end
  }
  return out
}

/** The run in its mark; spaces at its edges stay outside bold, italic and strike, where Markdown can say them. */
function wrap(mark: Mark, children: PhrasingContent[]): PhrasingContent[] {
  if (mark.type === 'link') return [{ type: 'link', url: mark.url ?? '', children }]
  const first = children[0]
  const last = children[children.length - 1]
  const lead = first?.type === 'text' ? /^\s*/.exec(first.value)![0] : ''
  const trail = last?.type === 'text' ? /\s*$/.exec(last.value)![0] : ''
  const inner = children.map((c) => ({ ...c })) as PhrasingContent[]
  if (lead && inner[0].type === 'text') inner[0].value = inner[0].value.slice(lead.length)
  const end = inner[inner.length - 1]
  if (trail && end.type === 'text' && end.value.length >= trail.length)
    end.value = end.value.slice(0, end.value.length - trail.length)
  const kept = inner.filter((c) => c.type !== 'text' || c.value !== '')
  const around: PhrasingContent[] =
    kept.length > 0 ? [{ type: mark.type, children: kept } as PhrasingContent] : []
  return [
    ...(lead ? [{ type: 'text', value: lead } as const] : []),
    ...around,
    ...(trail && kept.length > 0 ? [{ type: 'text', value: trail } as const] : []),
  ]
}
