// build/server.js, as it is: the server's entry. It refuses a Node.js older than the app supports with
// one line before anything is loaded that would crash on it later (better-sqlite3 13 ends a Node 20
// process with a segmentation fault), then starts the bundled server (build/app-server.js).
// Plain JavaScript that old Node versions parse, so that they reach the message.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `Storymap needs Node.js 22.12 or later (24 recommended); this is Node.js ${process.versions.node}. ` +
      'See "Runtime" in the README.',
  )
  process.exit(1)
}
await import('./app-server.js')
