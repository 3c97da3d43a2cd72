/** A call to the JSON API from the board (history and trash), with the workspace header. */
export async function callApi<T = unknown>(
  path: string,
  workspaceId: string,
  method: 'GET' | 'POST' | 'DELETE' = 'GET',
): Promise<{ ok: true; data: T } | { ok: false; status: number; error: string; message: string }> {
  try {
    const res = await fetch(path, { method, headers: { Workspace: workspaceId, Accept: 'application/json' } })
    const body = await res.json().catch(() => ({}))
    if (res.ok) return { ok: true, data: body as T }
    return { ok: false, status: res.status, error: body.error ?? 'failed', message: body.message ?? 'Something went wrong.' }
  } catch {
    return { ok: false, status: 0, error: 'network', message: 'Something went wrong.' }
  }
}
