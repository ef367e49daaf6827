// blocks.hpp: how every verify engine runs (rope_verify.hpp, scheme_verify_core.hpp): a table cut
// into blocks of a fixed size, the blocks of one slice (a shard: --shard K/N) taken by worker
// threads in any order, and their findings merged in block order into the report, so that the
// report does not depend on the number of threads, and the merged reports of a table's shards equal
// the report of one run over the whole table (report.hpp).
//
//   posenc::verify::verify_report rep;  // rows and block_rows set
//   posenc::verify::run_blocks(rep, {.shard = {1, 4}, .threads = 2}, [&](std::uint64_t block, block_findings& out) {
//     ... the findings of rows [block * block_rows, ...) ...
//   });
//
// The first exception a block throws stops the others after their block and is rethrown. Not
// constexpr; MPFR's per-thread caches are freed as each worker ends.
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "posenc/verify/report.hpp"

namespace posenc::verify {

// What slice of the table to verify, on how many threads, and whom to tell.
struct run_options {
  shard_spec shard{};    // verify only this slice of the blocks
  unsigned threads = 0;  // 0: every hardware thread
  // Called (from the worker threads, one call at a time) after each block: blocks done, of how many.
  std::function<void(std::uint64_t, std::uint64_t)> progress{};
};

// The findings of one block, merged in block order into the report.
struct block_findings {
  std::vector<dtype_findings> dtypes;
  integer_findings integers;
  std::vector<law_findings> laws;
};

// Sets rep's first and end block from the shard (rep.rows and rep.block_rows set), runs
// work(block, findings) for each of the slice's blocks on the threads, and sets rep's dtypes,
// integers and laws to the blocks' findings merged in block order.
template <class Work>
void run_blocks(verify_report& rep, const run_options& run, Work work) {
  const shard_spec s = run.shard;
  if (s.count == 0 || s.index >= s.count)
    throw std::invalid_argument("shard " + std::to_string(s.index) + "/" + std::to_string(s.count) +
                                ": the index must be below the count (shards are numbered from 0)");
  const std::uint64_t total = rep.total_blocks();
  rep.first_block = shard_first_block(total, s);
  rep.end_block = shard_first_block(total, {s.index + 1, s.count});
  if (rep.end_block == rep.first_block)
    throw std::invalid_argument("shard " + std::to_string(s.index) + "/" + std::to_string(s.count) +
                                " has no rows: the table has " + std::to_string(total) + " blocks of " +
                                std::to_string(rep.block_rows) +
                                (rep.naming == entry_naming::cos_sin ? " rows" : " entries") + "; use at most " +
                                std::to_string(total) + " shards");
  const std::uint64_t nblocks = rep.end_block - rep.first_block;
  std::vector<block_findings> found(nblocks);
  std::atomic<std::uint64_t> next{0}, done{0};
  std::mutex progress_lock, error_lock;
  std::exception_ptr error;
  auto worker = [&] {
    // MPFR keeps caches per thread (the constants of mpfr_sin_cos, mpfr_log): free this thread's
    // when it is done, or a worker's exit leaves them unreachable (LeakSanitizer reports them).
    struct free_thread_cache {
      ~free_thread_cache() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
    } const cache_guard;
    for (;;) {
      const std::uint64_t b = next.fetch_add(1);
      if (b >= nblocks) return;
      try {
        work(rep.first_block + b, found[b]);
      } catch (...) {
        const std::lock_guard<std::mutex> g(error_lock);
        if (!error) error = std::current_exception();
        next.store(nblocks);  // the others stop after their block
        return;
      }
      const std::uint64_t k = done.fetch_add(1) + 1;
      if (run.progress) {
        const std::lock_guard<std::mutex> g(progress_lock);
        run.progress(k, nblocks);
      }
    }
  };
  unsigned threads = run.threads != 0 ? run.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, nblocks));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& th : pool) th.join();
  if (error) std::rethrow_exception(error);

  // Blocks in order: the first one sets the lists, the others merge into them.
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    block_findings& f = found[b];
    if (b == 0) {
      rep.dtypes = std::move(f.dtypes);
      rep.integers = std::move(f.integers);
      rep.laws = std::move(f.laws);
      continue;
    }
    for (std::size_t i = 0; i < rep.dtypes.size(); ++i) rep.dtypes[i].merge(f.dtypes[i]);
    rep.integers.merge(f.integers);
    for (std::size_t i = 0; i < rep.laws.size(); ++i) rep.laws[i].merge(f.laws[i]);
  }
}

}  // namespace posenc::verify
