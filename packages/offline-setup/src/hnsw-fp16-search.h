// Compiled into faiss-node's addon by @mosaic/offline-setup (build-faiss-node.mjs), beside faiss.cc.
//
// One query of an HNSW index over float16 vectors with the inner product (faiss `HNSW<M>_SQfp16`,
// `IndexHNSWSQ`, what `@mosaic/indexing` builds past 250,000 vectors), searched as faiss 1.7.3's
// `IndexHNSW::search` does, with the same results to the bit, in about half the time.
//
// Debian's libfaiss is built for the baseline x86-64, so its float16 distance is scalar: each of a
// vector's 100 components converted in software, multiplied by the query's and added, one at a
// time. Here the conversion and the products are done eight at a time (F16C and AVX), and the
// products are still added one by one in component order from 0, so every distance is the same
// float as faiss's. The graph walk is the same walk: the greedy descent of the upper levels and the
// bounded search of level 0 (faiss's `MinimaxHeap`, efSearch, the relative-distance stop), over
// the same neighbours in the same order, the result heap fed in the same order. What differs is
// only when the work is done: a node's unvisited neighbours are listed first, their vectors
// prefetched, and their distances computed four at a time (four independent sums, so the adds of
// one do not wait for another's); then the candidates are taken in list order. The visited table
// is kept per thread and cleared as faiss clears it, instead of allocated per search (1.75 MB at
// 1.75 million vectors).
//
// `search` returns false, having done nothing, for any other index (another storage, metric or
// search mode), a CPU without F16C/AVX, or a build for another architecture than x86: the caller
// then asks faiss.

#pragma once

#if defined(__x86_64__) || defined(__i386__)

#include <faiss/IndexHNSW.h>
#include <faiss/IndexScalarQuantizer.h>
#include <faiss/impl/AuxIndexStructures.h>
#include <faiss/utils/Heap.h>

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace mosaic_hnsw
{
  using storage_idx_t = faiss::HNSW::storage_idx_t;

  // Inner products of a query with float16 codes, negated (the HNSW walk minimises), each the sum of
  // the float products in component order from 0: what faiss's scalar SQfp16 inner product gives.
  class Fp16InnerProduct
  {
  public:
    Fp16InnerProduct(const uint8_t *codes, size_t code_size, size_t d, const float *query)
        : codes_(codes), code_size_(code_size), d_(d), query_(query), products_(4 * d) {}

    float one(storage_idx_t id)
    {
      float *p = products_.data();
      products(code(id), p);
      float sum = 0;
      for (size_t j = 0; j < d_; j++) sum += p[j];
      return -sum;
    }

    // Distances of `n` vectors into `out`, in the order given.
    void many(const storage_idx_t *ids, int n, float *out)
    {
      for (int t = 0; t < n; t++)
      {
        const char *c = reinterpret_cast<const char *>(code(ids[t]));
        for (size_t offset = 0; offset < code_size_; offset += 64) __builtin_prefetch(c + offset);
      }
      int i = 0;
      float *p0 = products_.data(), *p1 = p0 + d_, *p2 = p1 + d_, *p3 = p2 + d_;
      for (; i + 4 <= n; i += 4)
      {
        products(code(ids[i]), p0);
        products(code(ids[i + 1]), p1);
        products(code(ids[i + 2]), p2);
        products(code(ids[i + 3]), p3);
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (size_t j = 0; j < d_; j++)
        {
          s0 += p0[j];
          s1 += p1[j];
          s2 += p2[j];
          s3 += p3[j];
        }
        out[i] = -s0;
        out[i + 1] = -s1;
        out[i + 2] = -s2;
        out[i + 3] = -s3;
      }
      for (; i < n; i++) out[i] = one(ids[i]);
    }

  private:
    const uint16_t *code(storage_idx_t id) const { return reinterpret_cast<const uint16_t *>(codes_ + static_cast<size_t>(id) * code_size_); }

    // The products query[i] * code[i] as floats (float16 to float is exact either way).
    __attribute__((target("avx,f16c"))) void products(const uint16_t *code, float *out) const
    {
      size_t i = 0;
      for (; i + 8 <= d_; i += 8)
      {
        const __m256 values = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(code + i)));
        _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_loadu_ps(query_ + i), values));
      }
      for (; i < d_; i++) out[i] = query_[i] * _cvtsh_ss(code[i]);
    }

    const uint8_t *codes_;
    size_t code_size_;
    size_t d_;
    const float *query_;
    std::vector<float> products_;
  };

  // The thread's visited table, at least `n` long (made or grown here; faiss makes one per search).
  inline faiss::VisitedTable &visitedTable(size_t n)
  {
    thread_local std::unique_ptr<faiss::VisitedTable> table;
    if (!table || table->visited.size() < n) table.reset(new faiss::VisitedTable(static_cast<int>(n)));
    return *table;
  }

  inline bool cpuCanRun()
  {
    static const bool can = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
    return can;
  }

  // One query `x` against `index`: the `k` best into `distances` and `labels`, exactly as
  // `index->search(1, x, k, distances, labels)` gives them. False (nothing written) when this is
  // not an index (or a CPU) it handles.
  inline bool search(const faiss::Index *index, const float *x, faiss::idx_t k, float *distances, faiss::idx_t *labels)
  {
    const auto *hnswIndex = dynamic_cast<const faiss::IndexHNSW *>(index);
    if (!hnswIndex || !cpuCanRun()) return false;
    const auto *storage = dynamic_cast<const faiss::IndexScalarQuantizer *>(hnswIndex->storage);
    const faiss::HNSW &hnsw = hnswIndex->hnsw;
    if (!storage || storage->sq.qtype != faiss::ScalarQuantizer::QT_fp16 || storage->code_size != 2 * static_cast<size_t>(index->d) ||
        index->metric_type != faiss::METRIC_INNER_PRODUCT || storage->metric_type != faiss::METRIC_INNER_PRODUCT ||
        hnswIndex->reconstruct_from_neighbors != nullptr || hnsw.upper_beam != 1 || !hnsw.search_bounded_queue || hnsw.entry_point < 0 ||
        k < 1 || storage->ntotal != index->ntotal || static_cast<size_t>(index->ntotal) * storage->code_size != storage->codes.size())
      return false;

    Fp16InnerProduct distance(storage->codes.data(), storage->code_size, static_cast<size_t>(index->d), x);
    faiss::VisitedTable &visited = visitedTable(static_cast<size_t>(index->ntotal));
    size_t widest = 0;
    for (int level = 0; level <= hnsw.max_level; level++) widest = std::max(widest, static_cast<size_t>(hnsw.nb_neighbors(level)));
    std::vector<storage_idx_t> ids(widest);
    std::vector<float> found(widest);

    faiss::maxheap_heapify(k, distances, labels);
    // Greedy descent of the upper levels: the nearest neighbour of each level's list, in list order.
    storage_idx_t nearest = hnsw.entry_point;
    float nearestDistance = distance.one(nearest);
    for (int level = hnsw.max_level; level >= 1; level--)
    {
      for (;;)
      {
        const storage_idx_t before = nearest;
        size_t begin, end;
        hnsw.neighbor_range(nearest, level, &begin, &end);
        int n = 0;
        for (size_t j = begin; j < end && hnsw.neighbors[j] >= 0; j++) ids[n++] = hnsw.neighbors[j];
        distance.many(ids.data(), n, found.data());
        for (int t = 0; t < n; t++)
        {
          if (found[t] < nearestDistance)
          {
            nearest = ids[t];
            nearestDistance = found[t];
          }
        }
        if (nearest == before) break;
      }
    }
    // Level 0: the bounded search from the nearest node found.
    const int efSearch = hnsw.efSearch;
    faiss::HNSW::MinimaxHeap candidates(std::max(efSearch, static_cast<int>(k)));
    candidates.push(nearest, nearestDistance);
    int results = 0;
    const auto keep = [&](float d, faiss::idx_t id)
    {
      if (results < k)
        faiss::maxheap_push(++results, distances, labels, d, id);
      else if (d < distances[0])
        faiss::maxheap_replace_top(results, distances, labels, d, id);
    };
    for (int i = 0; i < candidates.size(); i++)
    {
      keep(candidates.dis[i], candidates.ids[i]);
      visited.set(candidates.ids[i]);
    }
    const bool relativeStop = hnsw.check_relative_distance;
    int steps = 0;
    while (candidates.size() > 0)
    {
      float closest = 0;
      const int node = candidates.pop_min(&closest);
      if (relativeStop && candidates.count_below(closest) >= efSearch) break;
      size_t begin, end;
      hnsw.neighbor_range(node, 0, &begin, &end);
      int n = 0;
      for (size_t j = begin; j < end; j++)
      {
        const storage_idx_t neighbor = hnsw.neighbors[j];
        if (neighbor < 0) break;
        if (visited.get(neighbor)) continue;
        visited.set(neighbor);
        ids[n++] = neighbor;
      }
      distance.many(ids.data(), n, found.data());
      for (int t = 0; t < n; t++)
      {
        keep(found[t], ids[t]);
        candidates.push(ids[t], found[t]);
      }
      steps++;
      if (!relativeStop && steps > efSearch) break;
    }
    visited.advance();
    faiss::maxheap_reorder(k, distances, labels);
    // The inner products themselves, as faiss gives them for a similarity metric.
    for (faiss::idx_t i = 0; i < k; i++) distances[i] = -distances[i];
    return true;
  }
} // namespace mosaic_hnsw

#else

#include <faiss/Index.h>

namespace mosaic_hnsw
{
  // Not x86: every index is searched by faiss.
  inline bool search(const faiss::Index *, const float *, faiss::idx_t, float *, faiss::idx_t *) { return false; }
} // namespace mosaic_hnsw

#endif
