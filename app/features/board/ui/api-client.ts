/**
 * A read of the JSON API from a page (Activity, the trash), with the workspace header. Reads
 * only: every write leaves through the page's outbox (board-outbox.ts).
 */
export async function callApi<T = unknown>(
  path: string,
  workspaceId: string,
): Promise<{ ok: true; data: T } | { ok: false; status: number; error: string; message: string }> {
  try {
    const res = await fetch(path, { headers: { Workspace: workspaceId, Accept: 'application/json' } })
    const body = await res.json().catch(() => ({}))
    if (res.ok) return { ok: true, data: body as T }
    return {
      ok: false,
      status: res.status,
      error: body.error ?? 'failed',
      message: body.message ?? 'Something went wrong.',
    }
  } catch {
    return { ok: false, status: 0, error: 'network', message: 'Something went wrong.' }
  }
}
