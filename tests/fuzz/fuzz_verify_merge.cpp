// Fuzz harness: `posenc verify merge` gives the report of one run over the whole table. The input
// builds a table's verification block by block (tools' engines find per block: verify/blocks.hpp):
// RoPE-like (rows named cos/sin) or indexed, real-valued in 1 to 4 dtypes or integer-valued, the
// errors each block finds (ULPs from 0 to infinity, first failures, law measurements, NaN ones
// included) and a number of shards. The whole report merges every block in order, as run_blocks
// does for one process; each shard's report merges its slice, is written as JSON and read back
// (verify_report_json.hpp, what the shards' files go through), and the shards' reports are merged in
// block order, as `verify merge` does. Properties: the merged report is complete and its JSON equals
// the whole report's field for field (the time aside: docs/verify.md); merging two shards that do
// not follow each other is refused. Run with tools/fuzz.sh verify_merge SECONDS.
#include <posenc/io/verify_report_json.hpp>
#include <posenc/verify/blocks.hpp>
#include <posenc/verify/report.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_check.hpp"

namespace merge_harness {

namespace pv = posenc::verify;
using posenc_fuzz::byte_source;

struct table_shape {
  bool cos_sin = true;  // RoPE's rows, else indexed entries
  bool integer_valued = false;
  std::uint64_t rows = 0, block_rows = 0, blocks = 0, max_ulp_allowed = 0;
  std::vector<pv::table_dtype> dtypes;
  std::vector<std::string> laws;
};

// An error in ULPs as the engines find them: zero, a multiple of 1/4, a power of two up to 2^40 and
// past the sum's cap, or infinity (an entry that overflowed or is NaN).
inline double ulp_error(byte_source& in) {
  const std::uint8_t k = in.byte();
  switch (k % 4) {
    case 0: return 0.0;
    case 1: return 0.25 * static_cast<double>(in.byte());
    case 2: return std::ldexp(1.0, static_cast<int>(in.below(50)) - 4);
    default: return k % 8 == 3 ? std::numeric_limits<double>::infinity() : static_cast<double>(in.bits(16)) / 3.0;
  }
}

inline double any_double(byte_source& in) { return std::bit_cast<double>(in.bits(64)); }

inline std::string at_words(std::uint64_t index) {
  return "head " + std::to_string(index % 7) + ", distance " + std::to_string(index / 7);
}

// One block's findings: a few entries with errors in row order, the rest correctly rounded.
inline pv::block_findings block(byte_source& in, const table_shape& t, std::uint64_t b) {
  pv::block_findings f;
  const std::uint64_t first_row = b * t.block_rows;
  const std::uint64_t rows = std::min(t.block_rows, t.rows - first_row);
  const std::uint64_t per_row = t.cos_sin ? 8 : 1;  // entries of a row (cos and sin of 4 elements)
  // The laws first: an input runs out of bytes from its end (byte_source then gives zeros), and
  // drawn after the entries' errors, law measurements were rare beyond block 0 (8 of 2,300 law
  // findings of a 1200 s corpus had one), which left their merge (worst, first failure) unfuzzed.
  // RoPE's laws run on every block; the others' read the whole table, once (block 0).
  const pv::table_dtype law_dtype = t.dtypes.empty() ? pv::table_dtype::f64 : t.dtypes[0];
  for (const std::string& name : t.laws) {
    if (!t.cos_sin && b != 0) {
      f.laws.push_back(pv::law_findings::from(law_dtype, name.c_str(), nullptr, "run by the shard that holds block 0"));
      continue;
    }
    posenc::laws::law_result r{};
    for (std::uint64_t k = in.below(4); k > 0; --k) {
      const std::uint8_t v = in.byte();
      const double value = v == 255 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(v) / 64.0;
      r.add(value, 1.0, {.position = static_cast<std::int64_t>(first_row + in.below(rows)), .pair = 0, .element = -1});
    }
    f.laws.push_back(pv::law_findings::from(law_dtype, name.c_str(), &r, ""));
  }
  if (t.integer_valued) {
    pv::integer_findings& g = f.integers;
    g.entries = rows;
    std::uint64_t r = first_row;
    for (std::uint64_t k = in.below(4); k > 0 && r < first_row + rows; --k, r += 1 + in.below(rows)) {
      const std::uint64_t err = in.below(5);
      if (err == 0) continue;
      ++g.wrong;
      const auto got = static_cast<std::int64_t>(in.bits(8)), exact = got - static_cast<std::int64_t>(err);
      if (!g.has_worst || err > g.max_error)
        g.has_worst = true, g.max_error = err, g.worst = r, g.worst_got = got, g.worst_exact = exact,
        g.worst_at = at_words(r);
      if (!g.has_first_failure) g.has_first_failure = true, g.first_failure = r, g.first_failure_at = at_words(r);
    }
  }
  for (const pv::table_dtype dt : t.dtypes) {
    pv::dtype_findings d{.dtype = dt};
    d.entries = rows * per_row;
    std::uint64_t r = first_row;
    for (std::uint64_t k = in.below(5); k > 0 && r < first_row + rows; --k, r += 1 + in.below(rows)) {
      const double ulp = ulp_error(in);
      const pv::table_entry at{
          .position = r, .element = static_cast<std::uint32_t>(in.below(4)), .is_sin = in.byte() % 2 == 1};
      if (ulp > 0) ++d.not_correctly_rounded;
      if (pv::is_fixed_point(dt) && in.byte() % 4 == 0) ++d.saturated;
      d.add_error(ulp, at, any_double(in), any_double(in));
      if (ulp > static_cast<double>(t.max_ulp_allowed) + 0.5) {
        ++d.beyond_tolerance;
        if (!d.has_first_failure) d.has_first_failure = true, d.first_failure = at, d.first_failure_at = at_words(r);
      }
      if (d.has_worst && d.worst.position == r) d.worst_at = at_words(r);
    }
    f.dtypes.push_back(d);
  }
  return f;
}

inline pv::verify_report empty_report(const table_shape& t) {
  pv::verify_report rep;
  rep.scheme = t.cos_sin ? "rope" : (t.integer_valued ? "t5-bucket" : "alibi");
  rep.description = "a fuzzed table";
  rep.naming = t.cos_sin ? pv::entry_naming::cos_sin : pv::entry_naming::indexed;
  if (!t.cos_sin) rep.keys = {"head", "distance"}, rep.shape = {t.rows};
  rep.integer_valued = t.integer_valued;
  rep.rows = t.rows;
  rep.block_rows = t.block_rows;
  rep.max_ulp_allowed = t.max_ulp_allowed;
  return rep;
}

// The report of blocks [first, end), merged in order (run_blocks).
inline pv::verify_report slice_report(const table_shape& t, const std::vector<pv::block_findings>& blocks,
                                      std::uint64_t first, std::uint64_t end) {
  pv::verify_report rep = empty_report(t);
  rep.first_block = first, rep.end_block = end;
  for (std::uint64_t b = first; b < end; ++b) {
    const pv::block_findings& f = blocks[b];
    if (b == first) {
      rep.dtypes = f.dtypes, rep.integers = f.integers, rep.laws = f.laws;
      continue;
    }
    for (std::size_t i = 0; i < rep.dtypes.size(); ++i) rep.dtypes[i].merge(f.dtypes[i]);
    rep.integers.merge(f.integers);
    for (std::size_t i = 0; i < rep.laws.size(); ++i) rep.laws[i].merge(f.laws[i]);
  }
  return rep;
}

inline std::string json_without_time(const pv::verify_report& r) {
  auto j = posenc::io::verify_report_to_json(r);
  j.erase("seconds");
  return j.dump(1);
}

}  // namespace merge_harness

namespace merge_harness {

// sabotage: one shard's report read back is altered (an entry more), as a reader that lost or
// invented a field would; the replay's twin shows the comparison then fails.
inline void check(const std::uint8_t* data, std::size_t size, bool sabotage) {
  namespace h = merge_harness;
  using posenc_fuzz::broken;
  posenc_fuzz::byte_source in(data, size);
  h::table_shape t;
  const std::uint8_t kind = in.byte();
  t.cos_sin = kind % 2 == 0;
  t.integer_valued = !t.cos_sin && kind % 4 == 1;
  t.block_rows = t.cos_sin ? pv::verify_block_rows : pv::verify_block_entries;
  t.blocks = 1 + in.below(24);
  t.rows = (t.blocks - 1) * t.block_rows + 1 + in.below(t.block_rows);
  t.max_ulp_allowed = in.below(3);
  if (!t.integer_valued) {
    const pv::table_dtype all[] = {pv::table_dtype::f64, pv::table_dtype::f32, pv::table_dtype::bf16,
                                   pv::table_dtype::f16, pv::table_dtype::q15, pv::table_dtype::q31};
    const std::uint8_t mask = in.byte();
    for (int i = 0; i < 6 && t.dtypes.size() < 4; ++i)
      if ((mask >> i) & 1u) t.dtypes.push_back(all[i]);
    if (t.dtypes.empty()) t.dtypes.push_back(pv::table_dtype::f32);
  }
  for (std::uint64_t k = in.below(4); k > 0; --k) t.laws.push_back("law " + std::to_string(k));
  const std::uint64_t shards = 1 + in.below(t.blocks);

  std::vector<pv::block_findings> blocks;
  for (std::uint64_t b = 0; b < t.blocks; ++b) blocks.push_back(h::block(in, t, b));
  pv::verify_report whole = h::slice_report(t, blocks, 0, t.blocks);

  // Each shard's report through its JSON file, then merged in block order.
  std::vector<pv::verify_report> read;
  for (std::uint64_t k = 0; k < shards; ++k) {
    pv::verify_report s = h::slice_report(t, blocks, pv::shard_first_block(t.blocks, {k, shards}),
                                          pv::shard_first_block(t.blocks, {k + 1, shards}));
    s.seconds = 0.125 * static_cast<double>(k + 1);
    const std::string file = posenc::io::verify_report_to_json(s).dump(1);
    auto back = posenc::io::verify_report_from_json(file);
    if (!back) broken("a shard's report is read back", back.error());
    read.push_back(std::move(back).value());
  }
  if (sabotage) ++(t.integer_valued ? read.back().integers.entries : read.back().dtypes[0].entries);
  pv::verify_report merged = read[0];
  for (std::size_t k = 1; k < read.size(); ++k) merged.merge(read[k]);
  if (!merged.complete()) broken("the shards' merged report covers the table", "blocks missing");
  if (h::json_without_time(merged) != h::json_without_time(whole))
    broken("verify merge of the shards equals the whole report",
           std::to_string(shards) + " shards of " + std::to_string(t.blocks) + " blocks");
  if (read.size() >= 3) {
    pv::verify_report gap = read[0];
    try {
      gap.merge(read[2]);
    } catch (const std::invalid_argument&) {
      return;
    }
    broken("reports that do not follow each other are refused", "shard 0 merged with shard 2");
  }
}

}  // namespace merge_harness

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  merge_harness::check(data, size, false);
  return 0;
}
