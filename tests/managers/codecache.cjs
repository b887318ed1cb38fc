// tests/managers/codecache.cjs - V8's code cache for the package managers'
// bundles, preloaded (node -r) by mgr in lib.sh.
//
// pnpm 8 to 10 and yarn 3 and 4 are one JavaScript bundle each, 3.7 to
// 8.6 MB, which node compiles afresh at every start: 0.4 to 0.9 s of CPU
// before the manager does anything, and the deps tests start them about
// 400 times.  node 22's module.enableCompileCache() keeps the compiled
// code between runs (pnpm's bin/pnpm.cjs calls it when it is there, and
// falls back to the v8-compile-cache package, which it does not ship);
// the machine's node is 20, so this is that package's way, kept small:
// a bundle is compiled through vm.Script with the cached data of its last
// run, and at exit the data of what ran (the lazily compiled functions
// too) is written for the next.  The manager's code is not changed: V8
// checks the data against the source and the flags, and compiles afresh
// when it does not fit (cachedDataRejected).  (npm, 540 small files,
// gained nothing: 0.62 s of CPU for an install --dry-run either way.)
//
// Not cached: a file that may import() (node 20 loses the dynamic import
// callback of a script made from cached data, "A dynamic import callback
// was not specified", which ended npm silently with exit 1 when its files
// were tried): one where import( shows outside a comment line is compiled
// by node as always.  pnpm's import( are in JSDoc types, yarn has none.
//
// EP_CODE_CACHE is the folder (in the managers' download cache, lib.sh).
// Files are named by node's version and the file's path, size and time
// (the managers' files are installed once and not edited); each is
// written under a name of its own and renamed, so that two test runs at
// once share the folder.
'use strict'
const Module = require('module')
const vm = require('vm')
const fs = require('fs')
const path = require('path')
const crypto = require('crypto')

const dir = process.env.EP_CODE_CACHE
const BUNDLE = 256 * 1024	// smaller files: their compile costs less than a read
const compile = Module.prototype._compile
const fresh = []

// import( on a line that is not a comment's (JSDoc's {import('x').T}
// types are): a file that may import dynamically
function mayImport (content) {
  const re = /\bimport\s*\(/g
  let m
  while ((m = re.exec(content)) !== null) {
    const start = content.lastIndexOf('\n', m.index) + 1
    const before = content.slice(start, m.index)
    if (!/^\s*\*|\/\*|\/\//.test(before)) return true
  }
  return false
}

function cacheFile (filename, content) {
  if (content.length < BUNDLE) return null
  let st
  try { st = fs.statSync(filename) } catch { return null }
  const key = [process.version, process.arch, filename, content.length, st.size, st.mtimeMs].join('\0')
  return path.join(dir, crypto.createHash('sha256').update(key).digest('hex').slice(0, 32))
}

// the CommonJS require a module's code is given (node's makeRequireFunction)
function requireOf (mod) {
  const req = function require (id) { return mod.require(id) }
  req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options)
  req.resolve.paths = (request) => Module._resolveLookupPaths(request, mod)
  req.main = process.mainModule
  req.extensions = Module._extensions
  req.cache = Module._cache
  return req
}

if (dir) {
  Module.prototype._compile = function (content, filename) {
    const file = cacheFile(filename, content)
    if (!file) return compile.call(this, content, filename)
    let data
    try { data = fs.readFileSync(file) } catch { data = undefined }
    // (data was only ever written for a file that passed, and the scan
    // of a bundle costs 5 ms a start)
    if (data === undefined && mayImport(content)) return compile.call(this, content, filename)
    // a #! line is not JavaScript inside the wrapper: blanked, as node's
    // loader does, keeping the line numbers
    const source = content.startsWith('#!') ? content.replace(/^#!.*/, '') : content
    const script = new vm.Script(Module.wrap(source), { filename, cachedData: data })
    if (data === undefined || script.cachedDataRejected) fresh.push([script, file])
    const fn = script.runInThisContext({ displayErrors: true })
    return fn.call(this.exports, this.exports, requireOf(this), this, filename,
      path.dirname(filename))
  }
  process.once('exit', () => {
    if (fresh.length) try { fs.mkdirSync(dir, { recursive: true }) } catch { }
    for (const [script, file] of fresh) {
      const tmp = `${file}.${process.pid}.tmp`
      try {
        fs.writeFileSync(tmp, script.createCachedData())
        fs.renameSync(tmp, file)
      } catch {
        try { fs.unlinkSync(tmp) } catch { }
      }
    }
  })
}
