/** A tiny HTTP client with a cookie jar, acting as one browser/user against the real server. */
export class Client {
  cookies = new Map<string, string>()
  constructor(
    readonly baseUrl: string,
    public workspaceId?: string,
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' }
    const h = init.headers as Record<string, string>
    if (this.cookies.size) h.Cookie = this.cookieHeader()
    if (this.workspaceId && !('Workspace' in h)) h.Workspace = this.workspaceId
    if (body !== undefined) {
      if (typeof body === 'string') init.body = body
      else if (body instanceof URLSearchParams) {
        init.body = body
        h['Content-Type'] = 'application/x-www-form-urlencoded'
      } else {
        init.body = JSON.stringify(body)
        h['Content-Type'] = 'application/json'
      }
    }
    const res = await fetch(this.baseUrl + path, init)
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = attrs.some(
        (a) => /max-age=0/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()),
      )
      if (!value || expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await res.text()
    let json: any = undefined
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      // not JSON: keep text
    }
    return { status: res.status, headers: res.headers, text, json }
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers)
  }
  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers)
  }
  put(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('PUT', path, body, headers)
  }
  delete(path: string, headers?: Record<string, string>) {
    return this.request('DELETE', path, undefined, headers)
  }
}

let counter = 0
/** Signs up a fresh user with their own workspace; the client keeps the session and workspace id. */
export async function signUp(
  baseUrl: string,
  overrides: Partial<{
    workspaceName: string
    name: string
    email: string
    password: string
    invitation: string
  }> = {},
) {
  counter += 1
  const tag = `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e6)}`
  const body = {
    workspaceName: `ws${tag}`,
    name: `User ${counter}`,
    email: `user${tag}@example.com`,
    password: 'correct-horse',
    ...overrides,
  }
  const client = new Client(baseUrl)
  const res = await client.post('/v1/users/signup', body)
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`)
  const app = await client.get('/v1/account/app')
  const workspace = app.json.workspaces.find((w: { name: string }) => w.name === body.workspaceName)
  client.workspaceId = workspace?.id
  return { client, ...body, account: res.json, workspaceId: workspace?.id as string }
}
