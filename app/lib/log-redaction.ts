/**
 * Paths that carry a secret or an address: the one-time keys of mailed links, invitation codes,
 * share-link keys and e-mail addresses. Logs show the route, never the value.
 */
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/^(\/account\/(?:reset|verify|invitation)\/)[^/]+/i, ':key'],
  [/^(\/v1\/users\/(?:verify|invite)\/)[^/]+/i, ':key'],
  [/^(\/v1\/users\/reset\/)[^/]+/i, ':email'],
  [/^(\/v1\/account\/emailupdate\/)[^/]+/i, ':email'],
  [/^(\/(?:v1\/)?link\/)[^/]+/i, ':key'],
]

/** The path with its secret segment replaced, e.g. `/account/reset/:key`. Query strings are dropped. */
export function redactPath(path: string): string {
  let result = path.split('?')[0].replace(/\/{2,}/g, '/')
  for (const [pattern, placeholder] of SECRET_SEGMENTS) {
    result = result.replace(pattern, (_match, prefix: string) => prefix + placeholder)
  }
  return result
}
