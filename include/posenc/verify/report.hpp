// report.hpp: what verifying a table found, for every scheme (verify/rope_verify.hpp for RoPE's
// cos/sin tables, verify/scheme_verify.hpp for the others), and how the reports of a table's
// slices combine into the report of the whole table. One type, one text form (the CLI's), one JSON
// form (io/verify_report_json.hpp).
//
// Per dtype, the comparison of every entry with RN_T of its exact value (dtype_findings), or, for
// an integer-valued table (buckets, indices), with the exact integers (integer_findings); and every
// law of the registry that applies (law_findings). An entry is named either as RoPE's are (position,
// element, cos or sin: table_entry) or, for the other schemes, by its index in the table's row
// order (table_entry::position) and the words the scheme uses for it ("head 3, query 10, key 7",
// kept beside it: worst_at, first_failure_at).
//
// A report covers a range of the table's blocks: the whole table, or the slice a shard (--shard
// K/N) took. A block is verify_block_rows rows of a RoPE table, or verify_block_entries entries (in
// row order) of any other table; `rows` and `block_rows` count the one or the other. Everything in it is a count, a maximum (the first in row order
// on ties) or an exact sum, so combining the reports of consecutive slices (merge) is associative:
// the merged report of any split equals the report of one run over the whole table, bit for bit,
// except the time taken. In particular the mean ULP error is kept as an exact sum of fixed-point
// errors (ulp_sum_q, units of 2^-32 ULP), not as a float sum whose value would depend on the split.
// Not constexpr (the verify layer is test- and tool-side).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/laws/law_result.hpp"

namespace posenc::verify {

// The exact sum of fixed-point ULP errors (dtype_findings::ulp_sum_q): 128 bits, as GCC and Clang
// offer them on the hosts the verify layer runs on (__extension__ keeps -Wpedantic quiet).
__extension__ typedef unsigned __int128 ulp_sum_type;

// The storage types a table can have: the four floating formats, and CMSIS-DSP's q15/q31
// (numeric/fixed_point.hpp; RoPE's tables only: their unit in the last place is the grid step 2^-F,
// and their findings count the saturated entries).
enum class table_dtype : unsigned char { f64, f32, bf16, f16, q15, q31 };
inline constexpr int dtype_count = 6;  // the size of the per-dtype arrays (wanted[], RN bits)

constexpr bool is_fixed_point(table_dtype t) noexcept { return t == table_dtype::q15 || t == table_dtype::q31; }

constexpr std::string_view dtype_name(table_dtype t) noexcept {
  switch (t) {
    case table_dtype::f64: return "f64";
    case table_dtype::f32: return "f32";
    case table_dtype::bf16: return "bf16";
    case table_dtype::f16: return "f16";
    case table_dtype::q15: return "q15";
    case table_dtype::q31: return "q31";
  }
  return "?";
}

// Rows per block: the unit of work of the threads and of the shards. Fixed, so that a block's
// findings do not depend on how many threads or shards ran: the laws that compare rows (relative
// dot, composition) compare rows within one block.
inline constexpr std::uint64_t verify_block_rows = 1024;

// Entries per block of the tables other than RoPE's (their laws read the whole table: they run
// once, in the slice that holds block 0, so the block size only sets the unit of work).
inline constexpr std::uint64_t verify_block_entries = 4096;

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
  std::uint64_t saturated = 0;              // q15/q31: entries whose exact value is past the format's range (clamped)
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
  // The worst entry and the first failure in the scheme's words (indexed tables; "" for RoPE's).
  std::string worst_at{}, first_failure_at{};

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
    saturated += o.saturated;
    ulp_sum_q += o.ulp_sum_q;
    if (o.has_worst && (!has_worst || o.max_ulp > max_ulp)) {
      has_worst = true;
      max_ulp = o.max_ulp;
      worst = o.worst;
      worst_got = o.worst_got;
      worst_exact = o.worst_exact;
      worst_at = o.worst_at;
    }
    if (!has_first_failure && o.has_first_failure) {
      has_first_failure = true;
      first_failure = o.first_failure;
      first_failure_at = o.first_failure_at;
    }
  }
};

// An integer table (T5, DeBERTa buckets, Shaw indices) against the exact integers.
struct integer_findings {
  std::uint64_t entries = 0;
  std::uint64_t wrong = 0;      // entries other than the exact integer
  std::uint64_t max_error = 0;  // max |entry - exact|
  bool has_worst = false;
  std::uint64_t worst = 0;  // index of the entry with the largest error (the first on ties)
  std::int64_t worst_got = 0, worst_exact = 0;
  std::string worst_at{};
  bool has_first_failure = false;
  std::uint64_t first_failure = 0;
  std::string first_failure_at{};

  bool passed() const noexcept { return wrong == 0; }

  // The findings of the entries after this one's.
  void merge(const integer_findings& o) {
    entries += o.entries;
    wrong += o.wrong;
    if (o.has_worst && (!has_worst || o.max_error > max_error)) {
      has_worst = true;
      max_error = o.max_error;
      worst = o.worst;
      worst_got = o.worst_got;
      worst_exact = o.worst_exact;
      worst_at = o.worst_at;
    }
    if (!has_first_failure && o.has_first_failure) {
      has_first_failure = true;
      first_failure = o.first_failure;
      first_failure_at = o.first_failure_at;
    }
  }
};

// One law of the registry (verify/registry/) on the table of one dtype: the law's core definition
// (posenc/laws/), run on each block of a RoPE table, once on any other table.
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

// How an entry of the report is named: RoPE's (position, element, cos or sin), or an index in the
// table's row order with the scheme's words for it.
enum class entry_naming : unsigned char { cos_sin, indexed };

// The report of verifying rows [first_block, end_block) x block_rows of a table.
struct verify_report {
  std::string scheme = "rope";  // the CLI's name of the table: "rope", "alibi", "t5-bucket", ...
  std::string description{};    // the table verified: config, positions, layout (set by the caller; merge compares it)
  std::vector<std::string> keys{};  // what each index of the table is ("head", "distance")
  std::vector<std::uint64_t> shape{};
  entry_naming naming = entry_naming::cos_sin;
  bool integer_valued = false;  // integers (buckets) instead of dtypes
  std::uint64_t start = 0;      // a RoPE table's first position (0 for the others)
  std::uint64_t rows = 0;       // the whole table's rows (RoPE: positions; others: entries)
  std::uint64_t block_rows = verify_block_rows;
  std::uint64_t first_block = 0, end_block = 0;  // the blocks this report covers
  std::uint64_t max_ulp_allowed = 0;
  std::vector<dtype_findings> dtypes{};  // real-valued tables
  integer_findings integers{};           // integer-valued tables
  std::vector<law_findings> laws{};
  double seconds = 0;  // wall time (summed over merged reports)

  std::uint64_t total_blocks() const noexcept { return (rows + block_rows - 1) / block_rows; }
  bool complete() const noexcept { return first_block == 0 && end_block == total_blocks(); }
  bool passed() const noexcept {
    if (integer_valued && !integers.passed()) return false;
    for (const dtype_findings& d : dtypes)
      if (!d.passed()) return false;
    for (const law_findings& l : laws)
      if (l.ran && !l.holds) return false;
    return true;
  }

  // Appends the report of the blocks that follow this one's (same table, same checks).
  void merge(const verify_report& o) {
    if (o.scheme != scheme || o.description != description || o.keys != keys || o.shape != shape ||
        o.naming != naming || o.integer_valued != integer_valued || o.start != start || o.rows != rows ||
        o.block_rows != block_rows || o.max_ulp_allowed != max_ulp_allowed)
      throw std::invalid_argument("the reports are of different tables or checks");
    if (o.first_block != end_block)
      throw std::invalid_argument("the reports' blocks do not follow each other: blocks [" +
                                  std::to_string(first_block) + ", " + std::to_string(end_block) + ") then [" +
                                  std::to_string(o.first_block) + ", " + std::to_string(o.end_block) + ")");
    if (o.dtypes.size() != dtypes.size() || o.laws.size() != laws.size())
      throw std::invalid_argument("the reports checked different dtypes or laws");
    for (std::size_t i = 0; i < dtypes.size(); ++i) dtypes[i].merge(o.dtypes[i]);
    integers.merge(o.integers);
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

namespace detail {

// The tables verified together, one per dtype (a report has one entry per dtype): wanted[d] is set
// for each table's dtype; no table, or two of one dtype, is an error naming it. RoPE's engine and
// every scheme's check what they are given with this one rule.
template <class Input>
void distinct_dtypes(std::span<const Input> tables, bool (&wanted)[dtype_count]) {
  if (tables.empty()) throw std::invalid_argument("no table to verify");
  for (const Input& in : tables) {
    if (wanted[static_cast<int>(in.dtype)])
      throw std::invalid_argument("two tables of dtype " + std::string(dtype_name(in.dtype)));
    wanted[static_cast<int>(in.dtype)] = true;
  }
}

}  // namespace detail

}  // namespace posenc::verify
