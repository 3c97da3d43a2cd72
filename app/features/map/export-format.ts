/**
 * The JSON export file (CONTRACT §8): `{"format":"storymap","formatVersion":1,"exportedAt":…}`
 * followed by the bundle's `project` and lists, and the name it is downloaded under.
 */
export const EXPORT_FORMAT = 'storymap'
export const EXPORT_FORMAT_VERSION = 1

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** `<title>.storymap.json`, without path separators or control characters, at most ~130 characters. */
export function exportFilename(title: string): string {
  const base = Array.from(
    title
      .replace(LONE_SURROGATE, '_')
      // eslint-disable-next-line no-control-regex -- control characters are what it removes
      .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
      .trim()
      .replace(/^\.+/, ''),
  )
    .slice(0, 120)
    .join('')
    .trim()
  return `${base || 'project'}.storymap.json`
}

const rfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * The download's Content-Disposition: a quoted ASCII name every browser reads, plus the exact
 * UTF-8 name (RFC 6266 `filename*`) when the title has characters the quoted one cannot carry.
 */
export function exportDisposition(title: string): string {
  const name = exportFilename(title)
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["%\\]/g, '_')
  return ascii === name
    ? `attachment; filename="${ascii}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`
}
