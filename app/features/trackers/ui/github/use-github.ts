import { useFetcher } from 'react-router'
import { useBoard } from '~/features/board/ui'

/** What the board's GitHub route answers to a POST: a sentence to show, or the /v1 refusal. */
export type GithubResult = { ok?: boolean; message?: string; error?: string; webhookSecret?: string }

export type GithubIntent =
  | { intent: 'link'; repository: string; token: string }
  | { intent: 'unlink' }
  | { intent: 'sync' }
  | {
      intent: 'import'
      milestoneId: string
      subWorkflowId: string
      labels?: string[]
      state?: 'open' | 'all'
    }
  | { intent: 'createIssue'; featureId: string }
  | { intent: 'sendRelease'; milestoneId: string }

/**
 * A GitHub operation of the board (CONTRACT §13) as a Remix action of the board's GitHub route:
 * after it, the page's data is read again (the link, the features' issues).
 */
export function useGithubAction(key?: string) {
  const { basePath } = useBoard()
  const fetcher = useFetcher<GithubResult>({ key })
  const run = (intent: GithubIntent) =>
    fetcher.submit(intent, { method: 'post', action: `${basePath}/github`, encType: 'application/json' })
  return { run, busy: fetcher.state !== 'idle', result: fetcher.state === 'idle' ? fetcher.data : undefined }
}
