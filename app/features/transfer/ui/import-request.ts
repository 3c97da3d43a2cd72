/** The answer of `POST /v1/projects/import`: the new project's id, or what the server said. */
export type ImportAnswer = { ok: true; projectId: string } | { ok: false; message: string }

/**
 * A new project from a map, as `Import project` makes it (CONTRACT §8): one change, all or nothing.
 * `title` empty: the map's own title.
 */
export async function importProject(
  workspaceId: string,
  file: { text: string; format: 'json' | 'csv'; title?: string },
): Promise<ImportAnswer> {
  const query = new URLSearchParams(file.title ? { title: file.title } : {})
  try {
    const response = await fetch(`/v1/projects/import?${query}`, {
      method: 'POST',
      headers: {
        Workspace: workspaceId,
        'Content-Type': file.format === 'json' ? 'application/json' : 'text/csv',
      },
      body: file.text,
    })
    const body = (await response.json().catch(() => null)) as {
      project?: { id: string }
      message?: string
    } | null
    if (response.ok && body?.project) return { ok: true, projectId: body.project.id }
    return { ok: false, message: body?.message ?? 'Something went wrong.' }
  } catch {
    return { ok: false, message: 'Something went wrong.' }
  }
}
