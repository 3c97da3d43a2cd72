// node scripts/runtime-modules.mjs OUT: copies to OUT/node_modules the runtime packages
// (scripts/runtime-packages.mjs) and everything they depend on, as npm installed them, without
// what only building a native addon needs (its sources, object files, other platforms' binaries).
// The Docker image's runtime stage takes this folder instead of the whole node_modules (issue 34).
import fs from 'node:fs'
import path from 'node:path'
import { RUNTIME_PACKAGES } from './runtime-packages.mjs'

const root = process.cwd()
const out = process.argv[2]
if (!out) {
  console.error('usage: node scripts/runtime-modules.mjs OUT')
  process.exit(2)
}

/** Where Node would find `name` from `dir`: the nearest node_modules up the tree that has it. */
function locate(name, dir) {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name)
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate
    if (at === root || at === path.dirname(at)) return null
  }
}

const found = new Set()
function visit(name, from, optional) {
  const dir = locate(name, from)
  if (!dir) {
    if (optional) return
    throw new Error(`${name} (needed from ${path.relative(root, from) || '.'}) is not installed`)
  }
  if (found.has(dir)) return
  found.add(dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false)
  for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true)
  const optionalPeers = manifest.peerDependenciesMeta ?? {}
  for (const dep of Object.keys(manifest.peerDependencies ?? {}))
    if (!optionalPeers[dep]?.optional) visit(dep, dir, false)
}
for (const name of RUNTIME_PACKAGES) visit(name, root, false)

/** What a compiled addon keeps: the compiled `.node` files, not its sources or object files. */
const BUILD_ONLY = new Set(['src', 'deps', 'binding.gyp', 'obj.target', '.deps', 'obj', 'test', 'docs'])
function keep(source) {
  const base = path.basename(source)
  if (BUILD_ONLY.has(base) && fs.existsSync(path.join(source, '..', 'package.json'))) return false
  // In build/Release: the addons themselves, not the object files node-gyp leaves beside them
  // (obj.target holds a second copy of each addon) nor better-sqlite3's test extension.
  if (/\/build\/(Release|Debug)\/(obj\.target|obj|\.deps)$/.test(source)) return false
  if (/\/build\/(Release|Debug)\//.test(source) && fs.statSync(source).isFile())
    return source.endsWith('.node') && !source.endsWith('/test_extension.node')
  if (/\/build\/[^/]+$/.test(source) && !/\/build\/(Release|Debug)$/.test(source)) return false
  // Prebuilt binaries of other systems (argon2 ships several).
  const prebuilt = /\/prebuilds\/([^/]+)$/.exec(source)
  if (prebuilt) return prebuilt[1].startsWith(`${process.platform}-${process.arch}`)
  return true
}

fs.rmSync(path.join(out, 'node_modules'), { recursive: true, force: true })
for (const dir of found) {
  const target = path.join(out, path.relative(root, dir))
  fs.cpSync(dir, target, { recursive: true, filter: (source) => source === dir || keep(source) })
}
const bytes = sizeOf(path.join(out, 'node_modules'))
console.log(`runtime modules: ${found.size} packages, ${(bytes / 1e6).toFixed(1)} MB in ${path.join(out, 'node_modules')}`)

function sizeOf(at) {
  const stat = fs.lstatSync(at)
  if (!stat.isDirectory()) return stat.size
  return fs.readdirSync(at).reduce((sum, entry) => sum + sizeOf(path.join(at, entry)), 0)
}
