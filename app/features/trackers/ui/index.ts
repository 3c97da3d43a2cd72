/** The front door of trackers/ for the board page: its UI parts. */
export { TrackerBoard } from './tracker-board'
export { TrackerFeatureIssue, TrackerSendRelease } from './issue-controls'
// §13's GitHub dialog, notice and buttons (CONTRACT §13).
export { GithubBoard } from './github/github-board'
export { FeatureIssue, SendReleaseButton } from './github/issue-controls'
