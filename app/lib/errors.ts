/** A refusal the domain or a model raises; routes turn it into a status and a message. */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_many'
  | 'unavailable'
  | 'upstream'
  | 'timeout'

export class DomainError extends Error {
  /** Seconds the caller should wait before trying again (sent as `Retry-After`). */
  retryAfter?: number
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many: 429,
  /** A needed service (e.g. the mail server) failed; the action itself was kept. */
  unavailable: 503,
  /** The payment provider refused or failed; the message is the provider's. */
  upstream: 502,
  /** A service the answer waits for did not answer in time (the assistant's model). */
  timeout: 504,
}

export const refuse = {
  invalid: (code: string, message: string, field?: string) =>
    new DomainError('invalid', code, message, field),
  unauthorized: () => new DomainError('unauthorized', 'unauthorized', 'You are not signed in.'),
  forbidden: (message = 'You are not allowed to do this.', code = 'forbidden') =>
    new DomainError('forbidden', code, message),
  notFound: (what = 'Not found.', code = 'not_found') => new DomainError('not_found', code, what),
  conflict: (code: string, message: string, field?: string) =>
    new DomainError('conflict', code, message, field),
  unavailable: (code: string, message: string) => new DomainError('unavailable', code, message),
  upstream: (code: string, message: string) => new DomainError('upstream', code, message),
}
