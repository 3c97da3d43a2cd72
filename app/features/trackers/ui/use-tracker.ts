import { useFetcher } from 'react-router'
import { useBoard } from '~/features/board/ui'

/** What the board's Tracker route answers to a POST: a sentence to show, or the /v1 refusal. */
export type TrackerResult = { ok?: boolean; message?: string; error?: string; webhookSecret?: string }

export type TrackerIntent =
  | { intent: 'link'; link: Record<string, string> }
  | { intent: 'unlink' }
  | { intent: 'sync' }
  | { intent: 'createIssue'; featureId: string }
  | { intent: 'sendRelease'; milestoneId: string }
  | {
      intent: 'import'
      milestoneId: string
      subWorkflowId: string
      labels?: string[]
      state: 'open' | 'all'
    }

/** A tracker operation of the board (CONTRACT §14); the page's data is read again after it. */
export function useTrackerAction(key?: string) {
  const { basePath } = useBoard()
  const fetcher = useFetcher<TrackerResult>({ key })
  const run = (intent: TrackerIntent) =>
    fetcher.submit(intent, { method: 'post', action: `${basePath}/tracker`, encType: 'application/json' })
  return { run, busy: fetcher.state !== 'idle', result: fetcher.state === 'idle' ? fetcher.data : undefined }
}
