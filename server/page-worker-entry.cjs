// The file Piscina loads in each page thread (server/page-workers.ts). Piscina require()s it first;
// on Node 20.19+ a require() of our ES module (build/page-worker.js) goes through require(esm),
// and a thread stopped while that links its modules aborts the whole process (V8: "IsGraphAsync
// must be used on an instantiated module"): a SIGTERM in the first second after start did.
// This CommonJS file loads the page build with import(), whose linking a stop ends cleanly. ADR 29.
'use strict'

const loading = import('./page-worker.js')
// A page asked for before the build has loaded waits for it.
module.exports = async function renderPage(task) {
  return (await loading).default(task)
}
