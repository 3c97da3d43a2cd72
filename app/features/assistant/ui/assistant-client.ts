/** An answer of the assistant's routes as the dialogs use it: the data, or the server's message. */
export type AssistantAnswer<T> = { ok: true; data: T } | { ok: false; message: string }

const FAILED = 'Something went wrong.'

/** What the server said went wrong, from a JSON error body (CONTRACT §16's messages). */
export async function failureMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { message?: string } | null
  return body?.message ?? FAILED
}

/** A POST to an assistant route from the page: the session cookie and the workspace header. */
export function postAssistant(
  path: string,
  workspaceId: string,
  body: unknown,
  options: { signal?: AbortSignal; stream?: boolean } = {},
): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: {
      Workspace: workspaceId,
      'Content-Type': 'application/json',
      Accept: options.stream ? 'application/x-ndjson' : 'application/json',
    },
    body: JSON.stringify(body),
    signal: options.signal,
  })
}

/** A whole JSON answer; a refusal or a lost connection reads as its message. */
export async function askAssistant<T>(
  path: string,
  workspaceId: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<AssistantAnswer<T>> {
  try {
    const response = await postAssistant(path, workspaceId, body, { signal })
    if (!response.ok) return { ok: false, message: await failureMessage(response) }
    return { ok: true, data: (await response.json()) as T }
  } catch (error) {
    if (signal?.aborted) throw error
    return { ok: false, message: FAILED }
  }
}

/**
 * `Create` under a draft: the project with the drafted map as one change its member can undo
 * (`/{workspace}/drafts`), its id or what the server said.
 */
export async function createFromDraft(
  workspace: { id: string; name: string },
  project: { id: string; title: string; map: unknown },
): Promise<AssistantAnswer<{ projectId: string }>> {
  const answer = await askAssistant<{ project: { id: string } }>(
    `/${workspace.name}/drafts`,
    workspace.id,
    project,
  )
  return answer.ok ? { ok: true, data: { projectId: answer.data.project.id } } : answer
}
