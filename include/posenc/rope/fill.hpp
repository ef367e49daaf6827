// fill.hpp: correctly rounded RoPE cos/sin tables of any scaling, written into the caller's memory,
// with the numbers of rows and pairs known only at run time. constexpr, no heap, no exceptions,
// standard library only: the same function fills a constexpr table and a buffer at run time.
//
//   rope::fill_table<T>(cfg, cos, sin, layout, options)
//       D = rotary_dim(cfg), rows = cos.size() / D (cos.size() == sin.size(), a nonzero multiple
//       of D). Row i is position options.start + i: cos[i * D + k], sin[i * D + k], k < D, both
//       elements of pair j holding cos/sin of pair j, at (j, j + D/2) for layout::half_split (HF's
//       cat(freqs, freqs), GPT-NeoX) or (2j, 2j + 1) for layout::interleaved (GPT-J, Meta).
//   rope::fill_table<T>(cfg, positions, cos, sin, layout, fold_attention)
//       row i is position positions[i] (any order, repeats allowed: KV-cache slots, StreamingLLM
//       sink + window); cos.size() == sin.size() == positions.size() * D.
//   rope::fill_pair_table<T>(cfg, out, options)
//       compact rows, out[i * D/2 + j] = {sin, cos} of pair j at position options.start + i;
//       rows = out.size() / (D/2). The row format of apply.hpp's rotate().
//   rope::fill_pair_table<T>(cfg, positions, out, fold_attention)
//       the same at the listed positions; out.size() == positions.size() * D/2.
// T is double, float, posenc::bfloat16 or posenc::float16 (write it: fill_table<float>(...), a span
// does not deduce it from a std::array or std::vector). Entries are RN_T(cos/sin(p theta_j)) of the
// exact scaled frequency, bit for bit rope::sincos<T>(cfg, p, j) (angle.hpp), or with
// fold_attention RN_T(af cos), RN_T(af sin), bit for bit rope::attention_sincos: the attention
// factor folded in as HF does, but rounded once. rope::make_table / make_pair_table (table.hpp) and
// `posenc emit rope` are built on these functions.
// Dynamic NTK and LongRoPE with cfg.seq_len unset (0) take HF's sequence length, the fill's largest
// position plus one (seq_len.hpp): set seq_len when filling one table in several calls.
//
// Returns posenc::status::ok, or
//   domain_error: validate(cfg) fails, the spans do not have the shape above, or a position exceeds
//                 max_table_position = 2^21 (check_table() names which, with a message);
//   overflow:     a folded entry does not fit T (e.g. float16 with a large explicit attention_factor).
// On an error the spans' contents are unspecified. In constant evaluation an error is a compile
// error instead, naming the precondition (rope::invalid_rope_table) or the overflow
// (rope::folded_entry_overflows_table_type): a constexpr table cannot silently hold garbage.
//
// Cost: per entry one complex product of double anchors and a two-ended rounding test (the engine
// of detail/table_column.hpp), a dozen operations in constant evaluation; double tables at run time
// a product of double-double anchors (math/detail/sincos_table_rows_double.hpp), in constant
// evaluation the scalar path per entry. A position list's runs of consecutive positions (KV-cache
// slots, StreamingLLM's cache) cost what the range table does; its other positions take the scalar
// path (about 70 ns an entry at run time). Stack: the state of up to 128 columns and 2 x 8192
// double anchors, about 140 KiB, whatever the table's size (mind it on small firmware stacks).
//
//   std::vector<float> cos(rows * 128), sin(rows * 128);
//   if (posenc::rope::fill_table<float>(llama31, cos, sin) != posenc::status::ok) ...;
//   constexpr auto t = [] { std::array<float, 16 * 64> c{}, s{};
//                           posenc::rope::fill_table<float>(cfg, c, s); return c; }();
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/frequency_cache.hpp"
#include "posenc/rope/detail/table_column.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

// A table's broken precondition in constant evaluation: the fill calls this deliberately
// non-constexpr function with the sentence, so the compiler stops here and prints both (as
// invalid_rope_config does for a config, validate.hpp): "table positions past 2^21", "table
// RotaryDim differs from rotary_dim(cfg)", ... At run time the fill returns the status instead.
inline void invalid_rope_table(const char* precondition) noexcept { static_cast<void>(precondition); }

// A folded entry (af * cos, af * sin) that does not fit the table's type, in constant evaluation.
inline void folded_entry_overflows_table_type(const char* what) noexcept { static_cast<void>(what); }

}  // namespace posenc::rope

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// A broken table precondition: the validation naming it, and in constant evaluation the stop in
// invalid_rope_table. Called with the sentence as a literal at each site, so that the compiler's
// trace shows it ("in 'constexpr' expansion of table_failure("table positions past 2^21")").
constexpr rope::validation table_failure(const char* precondition) noexcept {
  if (std::is_constant_evaluated()) rope::invalid_rope_table(precondition);
  return {posenc::status::domain_error, precondition};
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// The largest position a table accepts (the range; angles stay below 2^21 rad for
// theta <= 1, inside the fast reduction's range).
inline constexpr std::uint64_t max_table_position = std::uint64_t{1} << 21;

struct table_options {
  std::uint64_t start = 0;      // first position of a consecutive table
  bool fold_attention = false;  // entries af cos, af sin (HF's attention_scaling), rounded once
};

// The preconditions of a table of `positions` rows starting at `start` and `rotary_dim_` columns.
constexpr validation check_table(const config& c, std::size_t positions, std::size_t rotary_dim_,
                                 std::uint64_t start = 0) noexcept {
  // In constant evaluation a broken config stops in invalid_rope_config, naming it (validate.hpp).
  if (const validation v = rope::detail::validate_config(c, std::is_constant_evaluated()); !v) return v;
  if (rotary_dim_ != static_cast<std::size_t>(rotary_dim(c)))
    return rope::detail::table_failure("table RotaryDim differs from rotary_dim(cfg)");
  if (positions == 0) return rope::detail::table_failure("a table needs at least one position");
  if (start > max_table_position || positions - 1 > max_table_position - start)
    return rope::detail::table_failure("table positions past 2^21");
  return {};
}

}  // namespace posenc::rope

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// What a public fill was given, in one shape. rows and the destination's stride follow from the
// config, so fill() works them out before anything is checked or written.
template <class T>
struct fill_request {
  std::uint64_t start = 0;
  const std::uint64_t* list = nullptr;  // by_list: row i is position list[i]
  std::size_t list_size = 0;
  bool by_list = false;       // not list != nullptr: an empty span's data() may be null
  bool list_one_run = false;  // by_list, list[i] = list[0] + i for every i (fill() finds it once)
  std::size_t size = 0;       // elements of cos (expanded) or of out (compact)
  std::size_t sin_size = 0;   // elements of sin (expanded); size for compact tables
  bool fold = false;
  table_dest<T> dest{};  // stride still 0
  // The config's rotating frequencies evaluated once by a caller filling several row ranges of one
  // config (rope_source, table_column.hpp); nullptr: each fill evaluates its own.
  const math::frequency_value* frequencies = nullptr;
};

// Every precondition of a fill, in this one place: check_table (config, rotary dim, position
// range) first, then the spans' shape. rows and d (the rotary dim) as fill() derived them.
template <class T>
constexpr rope::validation check_fill(const rope::config& c, const fill_request<T>& q, std::size_t rows,
                                      std::size_t d) noexcept {
  rope::validation v = rope::check_table(c, rows, d, q.by_list ? 0 : q.start);
  const std::size_t width = q.dest.pairs != nullptr ? d / 2 : d;  // elements per row
  if (v && q.sin_size != q.size) v = table_failure("table cos and sin spans differ in size");
  if (v && q.size != rows * width)
    v = q.by_list ? table_failure("table span size is not positions.size() times the row width")
                  : table_failure("table span size is not a multiple of the row width");
  // One run (list_one_run): its first and last positions bound all the others (no wrap once the first is in range).
  if (v && q.by_list && q.list_one_run &&
      (q.list[0] > rope::max_table_position || q.list[q.list_size - 1] > rope::max_table_position))
    v = table_failure("table positions past 2^21");
  for (std::size_t i = 0; v && q.by_list && !q.list_one_run && i < q.list_size; ++i)
    if (q.list[i] > rope::max_table_position) v = table_failure("table positions past 2^21");
  // precondition check
  return v;
}

// The largest position of a fill's rows (0 for no rows): the table's HF sequence length less one.
template <class T>
constexpr std::uint64_t last_position(const fill_request<T>& q, std::size_t rows) noexcept {
  if (!q.by_list) return rows == 0 ? q.start : q.start + (rows - 1);
  if (q.list_one_run) return q.list[q.list_size - 1];  // (check_fill refuses a run that wraps past 2^64)
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < q.list_size; ++i) last = q.list[i] > last ? q.list[i] : last;
  return last;
}

// A position list's runs of consecutive positions (KV-cache slots 0 .. n - 1, StreamingLLM's sinks
// and window, a text run of M-RoPE's positions) are filled as the range tables they are, through the
// row kernels; the positions between runs are the scalar entries of a list fill. A range fill has
// a fixed cost (its anchors: about a dozen entries a pair in constant evaluation, where a scalar
// entry costs about 6; at run time about 40 ns a pair, where a scalar entry costs about 70 row
// entries), so a run pays from list_min_run rows, or list_min_run_runtime at run time. The same
// bits every way (every entry is rope::sincos). Before the runs, a list of 4096 consecutive
// positions cost 74 ns an entry at run time, the range table 1 ns (docs/performance.md section 7).
inline constexpr std::size_t list_min_run = 8, list_min_run_runtime = 4;

// Whether list[0 .. n), n > 0, is list[0], list[0] + 1, ... (modulo 2^64: check_fill then bounds the
// first and the last). One pass with no early exit, which the compilers vectorise: a KV cache's slots
// 0 .. n - 1 are such a list, whose range check and run search were two passes of loops that exit
// early, about 1% of a 2005-row StreamingLLM table (0.3-0.8% now; docs/performance.md section 7).
constexpr bool consecutive_list(const std::uint64_t* list, std::size_t n) noexcept {
  std::uint64_t differ = 0;
  for (std::size_t i = 0; i < n; ++i) differ |= (list[i] - list[0]) ^ static_cast<std::uint64_t>(i);
  return n > 0 && differ == 0;
}

constexpr std::size_t consecutive_run(const std::uint64_t* list, std::size_t n, std::size_t i) noexcept {
  std::size_t r = 1;  // positions are at most max_table_position (check_fill): no wrap
  while (i + r < n && list[i + r] == list[i] + r) ++r;
  return r;
}

// The parts of a list of `rows` positions, in order: each run of at least min_run consecutive
// positions as fill_part(start, n, nullptr, first_row), the positions between runs as
// fill_part(0, n, list + first_row, first_row). Returns the first non-ok status.
template <class FillPart>
constexpr posenc::status for_list_parts(const std::uint64_t* list, std::size_t rows, std::size_t min_run,
                                        FillPart fill_part) noexcept {
  for (std::size_t i = 0; i < rows;) {
    std::size_t run = consecutive_run(list, rows, i);
    if (run >= min_run) {
      if (const posenc::status st = fill_part(list[i], run, nullptr, i); st != posenc::status::ok) return st;
      i += run;
      continue;
    }
    std::size_t j = i + run;  // the positions up to the next long run: one list fill
    while (j < rows && (run = consecutive_run(list, rows, j)) < min_run) j += run;
    if (const posenc::status st = fill_part(0, j - i, list + i, i); st != posenc::status::ok) return st;
    i = j;
  }
  return posenc::status::ok;
}

// The run length from which a list's runs are range fills, in this evaluation.
constexpr std::size_t list_run_length() noexcept {
  return std::is_constant_evaluated() ? list_min_run : list_min_run_runtime;
}

template <class T>
constexpr posenc::status fill_list_rows(const rope::config& c, fill_request<T>& q, std::size_t rows,
                                        std::size_t rotating, const attention_value* af) noexcept {
  const std::size_t width = q.dest.stride;
  std::size_t min_run = list_run_length();  // not a const: its initialiser would be constant-evaluated
  // A list that is one run (KV-cache slots 0 .. n - 1) is the range fill itself.
  if (rows >= min_run && q.list_one_run)
    return fill_rows<T>(c, q.list[0], rows, rotating, nullptr, af, q.dest, q.frequencies);
  // Otherwise the frequencies once for all the fills of the list, unless the caller evaluated them.
  frequency_cache theta{};
  const math::frequency_value* f = q.frequencies;
  if (f == nullptr && rows >= min_run) {
    theta = cache_frequencies(c);
    f = theta.get();
  }
  return for_list_parts(q.list, rows, min_run,
                        [&](std::uint64_t start, std::size_t n, const std::uint64_t* list, std::size_t first_row) {
                          table_dest<T> d = rows_from(q.dest, first_row, width);
                          return fill_rows<T>(c, start, n, rotating, list, af, d, f);
                        });
}

template <class T>
constexpr posenc::status fill_resolved(const rope::config& c, fill_request<T> q, std::size_t rows, std::size_t d,
                                       std::size_t width) noexcept {
  if (const rope::validation v = check_fill(c, q, rows, d); !v) return v.error;
  q.dest.stride = width;
  const attention_value af = q.fold ? attention_dd(c) : attention_value{};
  // The rotating pairs through the table engine. Proportional's other pairs have frequency 0: their
  // entries are the same in every row, {RN(0), RN(1)} or folded {RN(0), RN(af)}, evaluated once by
  // the function that evaluates every other entry (the same bits, and the same overflow status).
  const std::size_t rotating = static_cast<std::size_t>(rope::detail::rotating_pairs(c));
  posenc::status st =
      q.by_list ? fill_list_rows<T>(c, q, rows, rotating, q.fold ? &af : nullptr)
                : fill_rows<T>(c, q.start, rows, rotating, nullptr, q.fold ? &af : nullptr, q.dest, q.frequencies);
  if (!std::is_constant_evaluated()) q.dest.copy_second_halves(rows, rotating);  // the row kernel wrote first copies
  if (st == posenc::status::ok && rotating < d / 2) {
    const auto k = sincos_with<T>(c, rope::frequency_value{}, q.fold ? &af : nullptr, 0, static_cast<int>(rotating));
    st = k.error;
    q.dest.fill_constant_pairs(rows, rotating, k.value);
  }
  // Clang's diagnostic quotes the source line of the call, so the sentence stays on that line.
  // clang-format off
  if (st == posenc::status::overflow && std::is_constant_evaluated())
    rope::folded_entry_overflows_table_type("attention_factor * cos or * sin exceeds the largest finite value of the table's type");
  // clang-format on
  return st;
}

template <class T>
constexpr posenc::status fill(const rope::config& given, fill_request<T> q) noexcept {
  // rotary_dim is total (0 or negative for some invalid configs, which check_table then reports).
  const std::int64_t dim = rope::rotary_dim(given);
  const std::size_t d = dim > 0 ? static_cast<std::size_t>(dim) : 0;
  const std::size_t width = q.dest.pairs != nullptr ? d / 2 : d;
  const std::size_t rows = q.by_list ? q.list_size : (width == 0 ? 0 : q.size / width);
  if (q.by_list) q.list_one_run = consecutive_list(q.list, q.list_size);
  // Dynamic NTK and LongRoPE with seq_len unset read the table's own length, as HF (seq_len.hpp).
  // Only they get a copy of the config; every other fill works on the caller's object, as before
  // the rule existed.
  if (rope::reads_seq_len(given) && given.seq_len == 0) {
    const rope::config c = rope::with_seq_len_of_positions(given, last_position(q, rows));
    return fill_resolved<T>(c, q, rows, d, width);
  }
  return fill_resolved<T>(given, q, rows, d, width);
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// Rows at positions o.start + i, i < cos.size() / rotary_dim(c), expanded over the rotary dim.
template <storage_type T>
constexpr posenc::status fill_table(const config& c, std::span<T> cos, std::span<T> sin, layout l = layout::half_split,
                                    table_options o = {}) noexcept {
  return rope::detail::fill<T>(c, {.start = o.start,
                                   .size = cos.size(),
                                   .sin_size = sin.size(),
                                   .fold = o.fold_attention,
                                   .dest = {cos.data(), sin.data(), nullptr, 0, l}});
}

// Rows at the listed positions, expanded over the rotary dim.
template <storage_type T>
constexpr posenc::status fill_table(const config& c, std::span<const std::uint64_t> positions, std::span<T> cos,
                                    std::span<T> sin, layout l = layout::half_split,
                                    bool fold_attention = false) noexcept {
  return rope::detail::fill<T>(c, {.list = positions.data(),
                                   .list_size = positions.size(),
                                   .by_list = true,
                                   .size = cos.size(),
                                   .sin_size = sin.size(),
                                   .fold = fold_attention,
                                   .dest = {cos.data(), sin.data(), nullptr, 0, l}});
}

// Compact rows {sin, cos} per pair at positions o.start + i, i < out.size() / (rotary_dim(c) / 2).
template <storage_type T>
constexpr posenc::status fill_pair_table(const config& c, std::span<math::sincos_result<T>> out,
                                         table_options o = {}) noexcept {
  return rope::detail::fill<T>(c, {.start = o.start,
                                   .size = out.size(),
                                   .sin_size = out.size(),
                                   .fold = o.fold_attention,
                                   .dest = {nullptr, nullptr, out.data(), 0, layout::half_split}});
}

// Compact rows at the listed positions.
template <storage_type T>
constexpr posenc::status fill_pair_table(const config& c, std::span<const std::uint64_t> positions,
                                         std::span<math::sincos_result<T>> out, bool fold_attention = false) noexcept {
  return rope::detail::fill<T>(c, {.list = positions.data(),
                                   .list_size = positions.size(),
                                   .by_list = true,
                                   .size = out.size(),
                                   .sin_size = out.size(),
                                   .fold = fold_attention,
                                   .dest = {nullptr, nullptr, out.data(), 0, layout::half_split}});
}

}  // namespace posenc::rope
