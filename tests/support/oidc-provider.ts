import crypto from 'node:crypto'
import http from 'node:http'
import net from 'node:net'
import Provider from 'oidc-provider'
import { Client } from './client'

/** What the test provider says about a person who signs in with this login (the `sub`). */
export type TestIdentity = { email?: string; email_verified?: boolean; name?: string }

export const TEST_CLIENT = { id: 'storymap', secret: 'storymap-test-secret' }

/** How the next token endpoint answer's ID token is forged (a man in the middle, a rogue proxy). */
export type IdTokenForgery =
  /** Claims changed after the provider signed them; header and signature kept. */
  | { kind: 'claims'; claims: Record<string, unknown> }
  /** `alg: none`, no signature, with these claims changed. */
  | { kind: 'alg-none'; claims: Record<string, unknown> }
  /** Signed properly, but with a key the provider never published (kid `kid`). */
  | { kind: 'unknown-key'; kid: string; claims: Record<string, unknown> }

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')
const decodePart = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>

/** The ID token as a forger would send it (see IdTokenForgery). */
export function forgeIdToken(idToken: string, forgery: IdTokenForgery): string {
  const [header, payload, signature] = idToken.split('.')
  const claims = b64url(JSON.stringify({ ...decodePart(payload), ...forgery.claims }))
  if (forgery.kind === 'claims') return `${header}.${claims}.${signature}`
  if (forgery.kind === 'alg-none') return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${claims}.`
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const signedHeader = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: forgery.kid }))
  const forged = crypto.sign('sha256', Buffer.from(`${signedHeader}.${claims}`), privateKey)
  return `${signedHeader}.${claims}.${b64url(forged)}`
}

/** A free TCP port on the loopback address (the app's BASE_URL must be known before it starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo
      server.close(() => resolve(address.port))
    })
  })
}

/**
 * A real OpenID Provider (the certified `oidc-provider`) on loopback, with one client whose
 * redirect URI is the app's callback, and its development log-in and consent pages: any login
 * signs in as that `sub`, with the claims set in `identities`. `port`: a given one, else any free one.
 */
export async function startProvider(appBaseUrl: string, port = 0) {
  const identities = new Map<string, TestIdentity>()
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end()
  const server = http.createServer((req, res) => handle(req, res))
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
  // Signing keys of its own, and lifetimes set: the provider's development-only defaults print notices.
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const quiet = console.warn
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes('oidc-provider WARNING: a quick start development-only')) quiet(...args)
  }
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: [`${appBaseUrl}/account/oidc/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...identities.get(sub) }),
    }),
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['storymap-test-provider-cookie-key'] },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256', kid: 'test' }] },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
  })
  console.warn = quiet
  // The token endpoint's next answer can be forged on its way out (see IdTokenForgery).
  const forgeries: IdTokenForgery[] = []
  provider.use(async (ctx, next) => {
    await next()
    const forgery = ctx.path === '/token' ? forgeries.shift() : undefined
    const body = ctx.body as { id_token?: string } | undefined
    if (forgery && body?.id_token) ctx.body = { ...body, id_token: forgeIdToken(body.id_token, forgery) }
  })
  handle = provider.callback()
  return {
    issuer,
    identities,
    /** Forges the ID token of the next token endpoint answer. */
    forgeNextIdToken: (forgery: IdTokenForgery) => forgeries.push(forgery),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type TestProvider = Awaited<ReturnType<typeof startProvider>>

/**
 * One browser: a cookie jar for the app and one for the provider, following redirects by hand so
 * a test can look at (and tamper with) each step.
 */
export class SsoBrowser {
  readonly app: Client
  readonly idp: Client
  constructor(
    readonly appUrl: string,
    readonly provider: TestProvider,
  ) {
    this.app = new Client(appUrl)
    this.idp = new Client(provider.issuer)
  }

  /** GET /account/oidc/start: the provider's authorization URL. */
  async start(query = ''): Promise<URL> {
    const res = await this.app.get(`/account/oidc/start${query}`)
    if (res.status !== 302) throw new Error(`start answered ${res.status}: ${res.text}`)
    return new URL(res.headers.get('location')!)
  }

  /**
   * At the provider: from the authorization URL through its log-in (as `login`) and consent
   * pages, or `abort` at the log-in page; returns the URL it sends the browser back to.
   */
  async authorize(authUrl: URL, login: string, options: { abort?: boolean } = {}): Promise<URL> {
    let url = authUrl
    for (let step = 0; step < 12; step += 1) {
      if (url.origin !== this.provider.issuer) return url
      const res = await this.idp.get(url.pathname + url.search)
      const location = res.headers.get('location')
      if (location) {
        url = new URL(location, this.provider.issuer)
        continue
      }
      if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${res.text.slice(0, 300)}`)
      const prompt = /name="prompt" value="(\w+)"/.exec(res.text)?.[1]
      const action = /<form[^>]*action="([^"]+)"/.exec(res.text)?.[1]
      if (!prompt || !action) throw new Error(`no interaction form: ${res.text.slice(0, 300)}`)
      const target = new URL(action, this.provider.issuer)
      if (options.abort) {
        url = new URL(`${target.pathname}/abort`, this.provider.issuer)
        continue
      }
      const fields: Record<string, string> =
        prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }
      const posted = await this.idp.post(target.pathname, new URLSearchParams(fields))
      url = new URL(posted.headers.get('location')!, this.provider.issuer)
    }
    throw new Error('too many redirects at the provider')
  }

  /** Opens the callback URL at the app; returns the app's answer (a redirect). */
  callback(url: URL) {
    return this.app.get(url.pathname + url.search)
  }

  /** The whole sign-in as `login`: start, provider, callback. Returns the app's final redirect target. */
  async signIn(login: string): Promise<string> {
    const back = await this.authorize(await this.start(), login)
    const res = await this.callback(back)
    if (res.status !== 302) throw new Error(`callback answered ${res.status}: ${res.text.slice(0, 300)}`)
    return res.headers.get('location')!
  }
}
