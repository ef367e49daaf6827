// rope_verify_report.hpp: what verifying a RoPE cos/sin table found (verify/rope_verify.hpp), and
// how the reports of a table's slices combine into the report of the whole table.
//
// A report covers a range of the table's blocks of verify_block_rows rows: the whole table, or the
// slice a shard (--shard K/N) took. Everything in it is a count, a maximum (the first in row order
// on ties) or an exact sum, so combining the reports of consecutive slices (merge) is associative:
// the merged report of any split equals the report of one run over the whole table, bit for bit,
// except the time taken. In particular the mean ULP error is kept as an exact sum of fixed-point
// errors (ulp_sum_q, units of 2^-32 ULP), not as a float sum whose value would depend on the split.
// Not constexpr (the verify layer is test- and tool-side).
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/laws/law_result.hpp"
#include "posenc/rope/layout.hpp"

namespace posenc::verify {

// The exact sum of fixed-point ULP errors (dtype_findings::ulp_sum_q): 128 bits, as GCC and Clang
// offer them on the hosts the verify layer runs on (__extension__ keeps -Wpedantic quiet).
__extension__ typedef unsigned __int128 ulp_sum_type;

// The storage types a table can have.
enum class table_dtype : unsigned char { f64, f32, bf16, f16 };

constexpr std::string_view dtype_name(table_dtype t) noexcept {
  switch (t) {
    case table_dtype::f64: return "f64";
    case table_dtype::f32: return "f32";
    case table_dtype::bf16: return "bf16";
    case table_dtype::f16: return "f16";
  }
  return "?";
}

// Rows per block: the unit of work of the threads and of the shards. Fixed, so that a block's
// findings do not depend on how many threads or shards ran: the laws that compare rows (relative
// dot, composition) compare rows within one block.
inline constexpr std::uint64_t verify_block_rows = 1024;

// One entry of the table: the row's position, the element k of the row (0 .. rotary_dim - 1, in
// the table's layout) and which array.
struct table_entry {
  std::uint64_t position = 0;
  std::uint32_t element = 0;
  bool is_sin = false;
};

// The findings of one dtype against the MPFR oracle.
struct dtype_findings {
  table_dtype dtype = table_dtype::f32;
  std::uint64_t entries = 0;                // cos and sin entries compared (every element of every row)
  std::uint64_t not_correctly_rounded = 0;  // entries other than RN_T(exact)
  std::uint64_t beyond_tolerance = 0;       // entries more than max_ulp representable steps from RN_T(exact)
  double max_ulp = 0;                       // max |entry - exact| in ULPs of T (the exact value's binade)
  // Sum of the entries' errors in units of 2^-32 ULP (each error rounded down to that unit and
  // capped at 2^40 ULP): exact, so the mean does not depend on the order of summation.
  ulp_sum_type ulp_sum_q = 0;
  bool has_worst = false;
  table_entry worst{};     // the entry with the largest error (the first one in row order)
  double worst_got = 0;    // its value
  double worst_exact = 0;  // the exact value rounded to double
  bool has_first_failure = false;
  table_entry first_failure{};  // the first entry beyond the tolerance, in row order

  static constexpr double ulp_quantum = 0x1p-32;
  static constexpr double ulp_cap = 0x1p40;

  double mean_ulp() const noexcept {
    return entries == 0 ? 0.0 : static_cast<double>(ulp_sum_q) * ulp_quantum / static_cast<double>(entries);
  }
  bool passed() const noexcept { return beyond_tolerance == 0; }

  void add_error(double ulp, const table_entry& at, double got, double exact) noexcept {
    const double capped = ulp < ulp_cap ? ulp : ulp_cap;  // NaN-free: errors are finite or +inf
    ulp_sum_q += static_cast<ulp_sum_type>(capped / ulp_quantum);
    if (!has_worst || ulp > max_ulp) {
      has_worst = true;
      max_ulp = ulp;
      worst = at;
      worst_got = got;
      worst_exact = exact;
    }
  }

  // The findings of the rows after this one's.
  void merge(const dtype_findings& o) {
    if (o.dtype != dtype) throw std::invalid_argument("verify report: merging findings of different dtypes");
    entries += o.entries;
    not_correctly_rounded += o.not_correctly_rounded;
    beyond_tolerance += o.beyond_tolerance;
    ulp_sum_q += o.ulp_sum_q;
    if (o.has_worst && (!has_worst || o.max_ulp > max_ulp)) {
      has_worst = true;
      max_ulp = o.max_ulp;
      worst = o.worst;
      worst_got = o.worst_got;
      worst_exact = o.worst_exact;
    }
    if (!has_first_failure && o.has_first_failure) {
      has_first_failure = true;
      first_failure = o.first_failure;
    }
  }
};

// One law of the registry (verify/registry/laws.hpp) on the table of one dtype: the law's core
// definition (posenc/laws/) run on each block.
struct law_findings {
  table_dtype dtype = table_dtype::f32;
  std::string law{};
  bool ran = false;
  std::string skipped{};  // why it did not run ("" when it ran)
  bool holds = true;
  double deviation = 0;  // the worst measured value
  double bound = 0;      // its bound
  std::uint64_t checked = 0, failures = 0;
  bool has_worst = false;
  posenc::laws::entry_index worst{};
  bool has_first_failure = false;
  posenc::laws::entry_index first_failure{};

  static law_findings from(table_dtype t, const char* law, const posenc::laws::law_result* r, const char* skipped) {
    law_findings f{.dtype = t, .law = law};
    if (r == nullptr) {
      f.skipped = skipped;
      return f;
    }
    f.ran = true;
    f.holds = r->holds;
    f.checked = r->checked;
    f.failures = r->failures;
    if (r->checked > 0) {
      f.has_worst = true;
      f.deviation = r->deviation;
      f.bound = r->bound;
      f.worst = r->worst;
    }
    if (r->failures > 0 || !r->holds) {
      f.has_first_failure = true;
      f.first_failure = r->first_failure;
    }
    return f;
  }

  void merge(const law_findings& o) {
    if (o.dtype != dtype || o.law != law) throw std::invalid_argument("verify report: merging different laws");
    if (!o.ran) return;
    if (!ran) {  // a law skipped in some blocks only (none today) keeps the findings of the others
      *this = o;
      return;
    }
    holds = holds && o.holds;
    checked += o.checked;
    failures += o.failures;
    // The larger deviation, the first on ties; a NaN measurement (a NaN entry) wins, as in law_result.
    if (o.has_worst &&
        (!has_worst || o.deviation > deviation || (o.deviation != o.deviation && deviation == deviation))) {
      has_worst = true;
      deviation = o.deviation;
      bound = o.bound;
      worst = o.worst;
    }
    if (!has_first_failure && o.has_first_failure) {
      has_first_failure = true;
      first_failure = o.first_failure;
    }
  }
};

// The report of verifying rows [first_block, end_block) x verify_block_rows of a table.
struct rope_verify_report {
  std::string description{};  // the table verified: config, positions, layout (set by the caller; merge compares it)
  std::uint64_t start = 0;    // the table's first position
  std::uint64_t rows = 0;     // the whole table's rows
  std::uint64_t block_rows = verify_block_rows;
  std::uint64_t first_block = 0, end_block = 0;  // the blocks this report covers
  std::uint64_t max_ulp_allowed = 0;
  std::vector<dtype_findings> dtypes{};
  std::vector<law_findings> laws{};
  double seconds = 0;  // wall time (summed over merged reports)

  std::uint64_t total_blocks() const noexcept { return (rows + block_rows - 1) / block_rows; }
  bool complete() const noexcept { return first_block == 0 && end_block == total_blocks(); }
  bool passed() const noexcept {
    for (const dtype_findings& d : dtypes)
      if (!d.passed()) return false;
    for (const law_findings& l : laws)
      if (l.ran && !l.holds) return false;
    return true;
  }

  // Appends the report of the blocks that follow this one's (same table, same checks).
  void merge(const rope_verify_report& o) {
    if (o.description != description || o.start != start || o.rows != rows || o.block_rows != block_rows ||
        o.max_ulp_allowed != max_ulp_allowed)
      throw std::invalid_argument("the reports are of different tables or checks");
    if (o.first_block != end_block)
      throw std::invalid_argument("the reports' blocks do not follow each other: blocks [" +
                                  std::to_string(first_block) + ", " + std::to_string(end_block) + ") then [" +
                                  std::to_string(o.first_block) + ", " + std::to_string(o.end_block) + ")");
    if (o.dtypes.size() != dtypes.size() || o.laws.size() != laws.size())
      throw std::invalid_argument("the reports checked different dtypes or laws");
    for (std::size_t i = 0; i < dtypes.size(); ++i) dtypes[i].merge(o.dtypes[i]);
    for (std::size_t i = 0; i < laws.size(); ++i) laws[i].merge(o.laws[i]);
    end_block = o.end_block;
    seconds += o.seconds;
  }
};

// The blocks shard `index` of `count` takes: [total * index / count, total * (index + 1) / count).
struct shard_spec {
  std::uint64_t index = 0, count = 1;
};
inline std::uint64_t shard_first_block(std::uint64_t total_blocks, shard_spec s) noexcept {
  return static_cast<std::uint64_t>(static_cast<ulp_sum_type>(total_blocks) * s.index / s.count);
}

}  // namespace posenc::verify
