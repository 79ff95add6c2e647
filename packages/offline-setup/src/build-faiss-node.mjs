// Builds faiss-node's native addon offline against Debian's libfaiss-dev.
//
// faiss-node's own install script downloads a prebuilt binary or git-clones faiss; both need
// internet (pnpm is told not to run it; npm drops faiss-node, an optional dependency of
// @mosaic/vector-index, when it fails). Instead this module compiles the package's own src/faiss.cc with the node-gyp that ships
// inside npm, against /usr/include/faiss (faiss 1.7.3) and the system BLAS/LAPACK/OpenMP,
// and places the result at <faiss-node>/build/Release/faiss-node.node, where
// `require('bindings')('faiss-node')` finds it.
//
// faiss 1.7.3 has no namespace-level `faiss::idx_t` (only `faiss::Index::idx_t`); a forced-
// include header adds the alias. The npm package's files are never edited: a copy of faiss.cc
// is compiled from a scratch dir, patched twice. First, the faiss calls that faiss-node leaves
// unguarded (add, train, search, write) get a try/catch that turns a C++ exception into a JS
// Error. Unpatched, e.g. adding to an untrained IVF index calls std::terminate and kills node.
// The search's copy of the query, which faiss-node never frees, is freed. Second, four methods are
// added to the generic `Index` class (Index.fromFactory/fromBuffer/read), and one static method:
//   setParameter(name, value)  -> faiss::ParameterSpace (e.g. 'nprobe' for IVF, 'efSearch' for HNSW)
//   metricType()               -> the index's faiss::MetricType as a number
//   setThreads(n)              -> omp_set_num_threads(n) for the calling thread, returns the count before
//   searchAsync(query, k, threads) -> a Promise of { distances: Float32Array, labels: Float64Array,
//                                 kernel: 'hnsw-fp16' | 'faiss' }: one query (a Float32Array) searched
//                                 on libuv's thread pool, off the JS thread. An HNSW index over float16
//                                 vectors with the inner product is searched by hnsw-fp16-search.h (this
//                                 package's own code: faiss's walk and faiss's distances to the bit, about
//                                 twice as fast on a CPU with F16C, `kernel: 'hnsw-fp16'`); any other by
//                                 faiss with `threads` OpenMP threads (0: faiss's default)
//   Index.readAsync(path)      -> a Promise of an Index: faiss::read_index on libuv's thread pool, so
//                                 that loading a large index reads its files while the JS thread
//                                 parses the others
//
// Idempotent: a stamp (hash of faiss.cc + Node ABI + faiss version + this module's and the header's text)
// next to the .node makes a second run return immediately.
//
// Run through `mosaic-offline-setup` (bin of this package) or `buildFaissNode({ faissDir })`.
// Needs: apt-get install g++ make python3 libfaiss-dev libopenblas-dev liblapack-dev libomp-dev

import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OfflineSetupError } from './offline-setup-error.mjs';

/** @param {string} message @returns {never} */
function fail(message) {
  throw new OfflineSetupError({ step: 'faiss', message });
}

/** Wrap faiss calls that may throw C++ exceptions so they surface as JS errors, not aborts. */
function guardFaissCalls(source, log) {
  const statements = [
    'index_->add(dv.quot, xb);',
    'index_->train(dv.quot, xb);',
    'index_->search(nq, xq, k, D, I);',
    'faiss::write_index(index_.get(), fname.c_str());',
    'faiss::write_index(index_.get(), writer);',
  ];
  let patched = source;
  for (const statement of statements) {
    const count = patched.split(statement).length - 1;
    if (count !== 1) {
      log(`warning: expected '${statement}' once in faiss.cc, found ${count}; left unguarded`);
      continue;
    }
    patched = patched.replace(
      statement,
      `try { ${statement} } catch (const std::exception &mosaicEx) { ` +
        `Napi::Error::New(env, mosaicEx.what()).ThrowAsJavaScriptException(); return env.Undefined(); }`,
    );
  }
  // faiss-node's search copies the query into `new float[]` and never frees it (400 bytes a 100-d query).
  if (patched.split('delete[] I;').length === 2) patched = patched.replace('delete[] I;', 'delete[] I;\n    delete[] xq;');
  else log(`warning: expected 'delete[] I;' once in faiss.cc; the search's query copy is not freed`);
  return addMethods(patched, log);
}

const EXTRA_METHODS = `
  // ---- added by @mosaic/offline-setup ----
  Napi::Value setParameter(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    if (info.Length() != 2 || !info[0].IsString() || !info[1].IsNumber())
    {
      Napi::TypeError::New(env, "Expected (name: string, value: number).").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    try
    {
      faiss::ParameterSpace().set_index_parameter(index_.get(), info[0].As<Napi::String>().Utf8Value(), info[1].As<Napi::Number>().DoubleValue());
    }
    catch (const std::exception &ex)
    {
      Napi::Error::New(env, ex.what()).ThrowAsJavaScriptException();
      return env.Undefined();
    }
    return env.Undefined();
  }

  Napi::Value metricType(const Napi::CallbackInfo &info)
  {
    return Napi::Number::New(info.Env(), static_cast<double>(index_->metric_type));
  }

  // OpenMP threads of this JS thread's later faiss calls (omp_set_num_threads); returns the count
  // before. One thread makes an HNSW add reproducible (threads insert vertices in racing order).
  Napi::Value setThreads(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    if (info.Length() != 1 || !info[0].IsNumber() || info[0].As<Napi::Number>().Int32Value() < 1)
    {
      Napi::TypeError::New(env, "Expected (threads: integer >= 1).").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    const int previous = omp_get_max_threads();
    omp_set_num_threads(info[0].As<Napi::Number>().Int32Value());
    return Napi::Number::New(env, static_cast<double>(previous));
  }

  // One query searched on libuv's thread pool (faiss's search is const: searches may run side by
  // side; the caller must not add to the index meanwhile). The index's JS object is held until the
  // search ends, so it cannot be collected under the search.
  class MosaicSearchWorker : public Napi::AsyncWorker
  {
  public:
    MosaicSearchWorker(Napi::Env env, Napi::Object owner, faiss::Index *index, const float *query, size_t dimension, faiss::idx_t k, int threads)
        : Napi::AsyncWorker(env, "mosaic-faiss-search"), deferred_(Napi::Promise::Deferred::New(env)), index_(index),
          query_(query, query + dimension), k_(k), threads_(threads), distances_(k), labels_(k)
    {
      owner_ = Napi::Persistent(owner);
    }
    Napi::Promise Promise() { return deferred_.Promise(); }
    void Execute() override
    {
      try
      {
        // An HNSW index over float16 vectors (inner product) is searched by hnsw-fp16-search.h: the
        // same hits and distances as faiss's, in about half the time; any other index by faiss.
        if (mosaic_hnsw::search(index_, query_.data(), k_, distances_.data(), labels_.data()))
        {
          kernel_ = "hnsw-fp16";
          return;
        }
        if (threads_ > 0) omp_set_num_threads(threads_);
        index_->search(1, query_.data(), k_, distances_.data(), labels_.data());
      }
      catch (const std::exception &ex)
      {
        SetError(ex.what());
      }
    }
    void OnOK() override
    {
      Napi::Env env = Env();
      Napi::Float32Array distances = Napi::Float32Array::New(env, k_);
      Napi::Float64Array labels = Napi::Float64Array::New(env, k_);
      for (faiss::idx_t i = 0; i < k_; i++)
      {
        distances[i] = distances_[i];
        labels[i] = static_cast<double>(labels_[i]);
      }
      Napi::Object result = Napi::Object::New(env);
      result.Set("distances", distances);
      result.Set("labels", labels);
      result.Set("kernel", Napi::String::New(env, kernel_));
      deferred_.Resolve(result);
    }
    void OnError(const Napi::Error &error) override { deferred_.Reject(error.Value()); }

  private:
    Napi::Promise::Deferred deferred_;
    Napi::ObjectReference owner_;
    faiss::Index *index_;
    std::vector<float> query_;
    faiss::idx_t k_;
    int threads_;
    std::vector<float> distances_;
    std::vector<faiss::idx_t> labels_;
    const char *kernel_ = "faiss";
  };

  Napi::Value searchAsync(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    if (info.Length() != 3 || !info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float32_array || !info[1].IsNumber() || !info[2].IsNumber())
    {
      Napi::TypeError::New(env, "Expected (query: Float32Array, k: number, threads: number).").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    Napi::Float32Array query = info[0].As<Napi::Float32Array>();
    const int64_t k = info[1].As<Napi::Number>().Int64Value();
    const int threads = info[2].As<Napi::Number>().Int32Value();
    if (query.ElementLength() != static_cast<size_t>(index_->d) || k < 1 || k > index_->ntotal || threads < 0)
    {
      Napi::Error::New(env, "Expected one query of the index's dimension, 1 <= k <= ntotal and threads >= 0.").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    auto *worker = new MosaicSearchWorker(env, info.This().As<Napi::Object>(), index_.get(), query.Data(), query.ElementLength(), k, threads);
    Napi::Promise promise = worker->Promise();
    worker->Queue();
    return promise;
  }

  // faiss::read_index on libuv's thread pool: the file is read and decoded off the JS thread, which
  // goes on with other work, and the index is wrapped in a new JS object of this class when done.
  class MosaicReadWorker : public Napi::AsyncWorker
  {
  public:
    MosaicReadWorker(Napi::Env env, std::string path)
        : Napi::AsyncWorker(env, "mosaic-faiss-read"), deferred_(Napi::Promise::Deferred::New(env)), path_(std::move(path)) {}
    Napi::Promise Promise() { return deferred_.Promise(); }
    void Execute() override
    {
      try
      {
        read_.reset(faiss::read_index(path_.c_str()));
      }
      catch (const std::exception &ex)
      {
        SetError(ex.what());
      }
    }
    void OnOK() override
    {
      Napi::Object instance = T::constructor->New({});
      T *index = Napi::ObjectWrap<T>::Unwrap(instance);
      index->index_ = std::move(read_);
      deferred_.Resolve(instance);
    }
    void OnError(const Napi::Error &error) override { deferred_.Reject(error.Value()); }

  private:
    Napi::Promise::Deferred deferred_;
    std::string path_;
    std::unique_ptr<faiss::Index> read_;
  };

  static Napi::Value readAsync(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    if (info.Length() != 1 || !info[0].IsString())
    {
      Napi::TypeError::New(env, "Expected (path: string).").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    auto *worker = new MosaicReadWorker(env, info[0].As<Napi::String>().Utf8Value());
    Napi::Promise promise = worker->Promise();
    worker->Queue();
    return promise;
  }

protected:
  std::unique_ptr<faiss::Index> index_;`;

/** Add setParameter/metricType/setThreads/searchAsync/readAsync to IndexBase and register them on the generic Index class. */
function addMethods(source, log) {
  const anchors = [
    ['\nprotected:\n  std::unique_ptr<faiss::Index> index_;', EXTRA_METHODS],
    [
      'InstanceMethod("toBuffer", &Index::toBuffer),',
      'InstanceMethod("toBuffer", &Index::toBuffer),\n      InstanceMethod("setParameter", &Index::setParameter),\n      InstanceMethod("metricType", &Index::metricType),\n      InstanceMethod("setThreads", &Index::setThreads),\n      InstanceMethod("searchAsync", &Index::searchAsync),',
    ],
    ['StaticMethod("read", &Index::read),', 'StaticMethod("read", &Index::read),\n      StaticMethod("readAsync", &Index::readAsync),'],
  ];
  for (const [anchor] of anchors) {
    if (source.split(anchor).length !== 2) {
      log(`warning: faiss.cc layout differs from faiss-node 0.5.1; setParameter/metricType/setThreads/searchAsync/readAsync not added`);
      return source;
    }
  }
  let patched = source;
  for (const [anchor, replacement] of anchors) patched = patched.replace(anchor, replacement);
  return patched;
}

/**
 * Build faiss-node's addon in `faissDir` (the installed faiss-node package) against the system libfaiss.
 * Throws OfflineSetupError (step 'faiss') naming what is missing.
 * @param {object} options
 * @param {string} options.faissDir the faiss-node package directory
 * @param {boolean} [options.force] rebuild even when the stamp matches
 * @param {boolean} [options.verbose] show node-gyp's output
 * @param {(message: string) => void} [options.log] progress lines (default: none)
 * @returns {{ addon: string, built: boolean, faissVersion: string, elapsedMs: number }}
 */
export function buildFaissNode(options) {
  const started = Date.now();
  const { force = false, verbose = false } = options;
  const log = options.log ?? (() => {});
  const faissDir = realpathSync(options.faissDir);
  const faissSource = join(faissDir, 'src', 'faiss.cc');
  if (!existsSync(faissSource)) fail(`${faissSource} is missing; faiss-node's package looks incomplete`);
  const outDir = join(faissDir, 'build', 'Release');
  const outFile = join(outDir, 'faiss-node.node');
  const stampFile = join(outDir, 'faiss-node.mosaic-stamp');
  const hnswSearchSource = fileURLToPath(new URL('./hnsw-fp16-search.h', import.meta.url));

  // ---- fast path: up to date? -----------------------------------------------------------------
  const faissVersionHeader = '/usr/include/faiss/Index.h';
  const faissHeaderText = existsSync(faissVersionHeader) ? readFileSync(faissVersionHeader, 'utf8') : '';
  const faissVersion = ['MAJOR', 'MINOR', 'PATCH']
    .map((part) => faissHeaderText.match(new RegExp(`#define FAISS_VERSION_${part} (\\d+)`))?.[1] ?? '?')
    .join('.');
  const stamp = createHash('sha256')
    .update(readFileSync(faissSource))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(readFileSync(hnswSearchSource))
    .update(`\0abi=${process.versions.modules}\0napi=${process.versions.napi}`)
    .update(`\0${process.platform}-${process.arch}\0faiss=${faissVersion}`)
    .digest('hex');

  if (!force && existsSync(outFile) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp) {
    return { addon: outFile, built: false, faissVersion, elapsedMs: Date.now() - started };
  }

  // ---- prerequisites --------------------------------------------------------------------------
  const libDirs = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib'];
  function findLib(name) {
    for (const dir of libDirs) {
      for (const ext of ['.so', '.a']) {
        if (existsSync(join(dir, `lib${name}${ext}`))) return join(dir, `lib${name}${ext}`);
      }
    }
    return undefined;
  }
  function which(command) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (dir && existsSync(join(dir, command))) return join(dir, command);
    }
    return undefined;
  }

  const missingApt = [];
  if (process.platform !== 'linux') fail(`only Linux is supported (this is ${process.platform})`);
  if (!existsSync('/usr/include/faiss/index_factory.h') || !findLib('faiss')) missingApt.push('libfaiss-dev');
  const blasLib = findLib('openblas') ? 'openblas' : findLib('blas') ? 'blas' : undefined;
  if (!blasLib) missingApt.push('libopenblas-dev');
  if (!findLib('lapack')) missingApt.push('liblapack-dev');
  if (!which('g++')) missingApt.push('g++');
  if (!which('make')) missingApt.push('make');
  if (!which('python3')) missingApt.push('python3');
  if (missingApt.length > 0) {
    fail(`missing system packages; install them with:\n    apt-get install -y ${missingApt.join(' ')}`);
  }
  if (faissVersion !== '1.7.3') {
    log(`warning: built and tested against faiss 1.7.3, found ${faissVersion}`);
  }

  let addonApiDir;
  try {
    addonApiDir = dirname(createRequire(join(faissDir, 'package.json')).resolve('node-addon-api/package.json'));
  } catch (error) {
    fail(`cannot resolve node-addon-api from ${faissDir}: ${/** @type {Error} */ (error).message}`);
  }

  // Node headers: prefer the ones installed with node (no download possible offline).
  const nodeDirCandidates = [resolve(dirname(process.execPath), '..'), '/usr', '/usr/local'];
  const nodeDir = nodeDirCandidates.find(
    (dir) => existsSync(join(dir, 'include', 'node', 'node_api.h')) && existsSync(join(dir, 'include', 'node', 'common.gypi')),
  );
  if (!nodeDir) {
    fail(
      `Node.js headers not found (looked for include/node/node_api.h under ${nodeDirCandidates.join(', ')}); ` +
        `node-gyp cannot download them offline. Install Node.js with its headers (e.g. the nodesource 'nodejs' package).`,
    );
  }

  function findNodeGyp() {
    const candidates = [];
    if (process.env.NODE_GYP) candidates.push(process.env.NODE_GYP);
    const npm = which('npm');
    if (npm) {
      const npmCli = realpathSync(npm); // .../npm/bin/npm-cli.js
      candidates.push(join(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
    }
    candidates.push(join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
    return candidates.find((candidate) => existsSync(candidate));
  }
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) fail('node-gyp not found (it ships with npm); set NODE_GYP=/path/to/node-gyp.js');

  // ---- scratch project ------------------------------------------------------------------------
  const scratch = join(faissDir, 'build-mosaic');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(join(scratch, 'src'), { recursive: true });
  writeFileSync(join(scratch, 'src', 'faiss.cc'), guardFaissCalls(readFileSync(faissSource, 'utf8'), log));
  writeFileSync(
    join(scratch, 'src', 'faiss-compat.h'),
    `// Generated by @mosaic/offline-setup. faiss-node 0.5 expects faiss >= 1.7.4, where idx_t
  // lives at namespace level; faiss 1.7.3 only has faiss::Index::idx_t.
  #pragma once
  #include <faiss/Index.h>
  #include <faiss/AutoTune.h>
  #include <omp.h>
  #include <stdexcept>
  #include <vector>
  #if FAISS_VERSION_MAJOR == 1 && FAISS_VERSION_MINOR == 7 && FAISS_VERSION_PATCH < 4
  namespace faiss {
  using idx_t = Index::idx_t;
  }
  #endif
  #include "hnsw-fp16-search.h"
  `,
  );
  copyFileSync(hnswSearchSource, join(scratch, 'src', 'hnsw-fp16-search.h'));
  const gyp = {
    targets: [
      {
        target_name: 'faiss-node',
        sources: ['src/faiss.cc'],
        include_dirs: [addonApiDir, '/usr/include'],
        defines: ['NAPI_VERSION=8', 'NAPI_CPP_EXCEPTIONS'],
        'cflags!': ['-fno-exceptions'],
        'cflags_cc!': ['-fno-exceptions', '-fno-rtti', '-std=gnu++17', '-std=gnu++14'],
        cflags_cc: ['-std=c++17', '-fexceptions', '-frtti', '-fopenmp', '-O2', '-include', 'faiss-compat.h', '-I<(module_root_dir)/src'],
        ldflags: ['-fopenmp'],
        libraries: ['-lfaiss', `-l${blasLib}`, '-llapack', '-lgomp'],
      },
    ],
  };
  writeFileSync(join(scratch, 'binding.gyp'), `${JSON.stringify(gyp, null, 2)}\n`);

  // ---- compile --------------------------------------------------------------------------------
  log(`compiling ${faissSource} against faiss ${faissVersion} (node ${process.version}, ABI ${process.versions.modules}) ...`);
  const gypArgs = [nodeGyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, `--directory=${scratch}`, `--jobs=${Math.max(1, cpus().length)}`];
  if (verbose) gypArgs.push('--verbose');
  const result = spawnSync(process.execPath, gypArgs, {
    cwd: scratch,
    stdio: verbose ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, npm_config_nodedir: nodeDir },
  });
  const built = join(scratch, 'build', 'Release', 'faiss-node.node');
  if (result.status !== 0 || !existsSync(built)) {
    if (!verbose) {
      const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim().split('\n');
      console.error(output.slice(-60).join('\n'));
    }
    fail(`node-gyp failed (exit ${result.status ?? result.signal}); rerun with --verbose for the full log`);
  }

  mkdirSync(outDir, { recursive: true });
  copyFileSync(built, outFile);

  // ---- smoke test in a fresh process ----------------------------------------------------------
  const smoke = spawnSync(
    process.execPath,
    [
      '-e',
      `const f = require(${JSON.stringify(faissDir)});
       const i = new f.IndexFlatIP(2); i.add([1, 0, 0, 1]);
       const r = i.search([0.9, 0.1], 1);
       if (r.labels[0] !== 0) { console.error('unexpected search result', JSON.stringify(r)); process.exit(1); }
       const h = f.Index.fromFactory(2, 'HNSW8', f.MetricType.METRIC_INNER_PRODUCT);
       if (typeof h.setParameter === 'function') { h.setParameter('efSearch', 32); if (h.metricType() !== 0) process.exit(2); }
       if (typeof h.setThreads === 'function') { const before = h.setThreads(1); if (!(before >= 1) || h.setThreads(before) !== 1) process.exit(3); }
       const a = f.Index.fromFactory(2, 'Flat', f.MetricType.METRIC_INNER_PRODUCT); a.add([1, 0, 0, 1]);
       if (typeof a.searchAsync === 'function') a.searchAsync(new Float32Array([0.1, 0.9]), 1, 1).then((s) => { if (s.labels[0] !== 1) process.exit(4); }, () => process.exit(5));
       // hnsw-fp16-search.h against faiss's own search (the synchronous one) on a small HNSW16_SQfp16 index.
       const q = f.Index.fromFactory(8, 'HNSW16_SQfp16', f.MetricType.METRIC_INNER_PRODUCT);
       const xs = []; for (let i = 0; i < 8 * 300; i += 1) xs.push(Math.sin(i * 12.9898) * 0.5);
       q.train(xs); q.add(xs);
       if (typeof q.searchAsync === 'function') {
         const x = xs.slice(8 * 17, 8 * 18).map((v, i) => v + 0.01 * Math.cos(i));
         const sync = q.search(x, 10);
         q.searchAsync(new Float32Array(x), 10, 1).then((s) => {
           const same = s.labels.every((l, i) => l === sync.labels[i]) && s.distances.every((d, i) => d === Math.fround(sync.distances[i]));
           if (!same) { console.error('hnsw-fp16 search differs from faiss', JSON.stringify({ mosaic: [...s.labels], faiss: sync.labels })); process.exit(8); }
         }, () => process.exit(9));
       }
       if (typeof f.Index.readAsync === 'function') {
         const p = require('path').join(require('os').tmpdir(), 'mosaic-faiss-smoke-' + process.pid + '.faiss');
         a.write(p);
         f.Index.readAsync(p).then((r) => { require('fs').rmSync(p, { force: true }); if (r.ntotal() !== 2) process.exit(6); }, () => { require('fs').rmSync(p, { force: true }); process.exit(7); });
       }`,
    ],
    { encoding: 'utf8' },
  );
  if (smoke.status !== 0) {
    rmSync(stampFile, { force: true });
    fail(`built addon does not load or search correctly:\n${smoke.stderr}`);
  }
  writeFileSync(stampFile, `${stamp}\n`);
  rmSync(scratch, { recursive: true, force: true });
  return { addon: outFile, built: true, faissVersion, elapsedMs: Date.now() - started };
}
