// emit_scheme_util.hpp: what every `posenc emit <scheme>` table shares (schemes/<scheme>.hpp):
// required and ranged integer flags, the row limit, --positions and --start, the config check that
// turns validate's sentence into the error, --dtype dispatch, comma lists of reals, and the heads x
// distances table shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/status.hpp>
#include <posenc/validation.hpp>

#include "args.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "warning.hpp"

namespace posenc::cli::emit {

inline constexpr long long max_abs_position = 1LL << 40;
inline constexpr long long int_min = -(1LL << 31), int_max = (1LL << 31) - 1;

inline long long required_integer(const parsed_args& a, std::string_view name, long long lo, long long hi,
                                  const std::string& ctx) {
  if (!a.has(name)) throw usage_error(ctx + ": --" + std::string(name) + " is required");
  return flag_integer(a, name, lo, hi, 0, ctx);
}

// rows = a * b, an error when it exceeds max_table_rows (a, b below 2^62: no overflow).
inline std::size_t table_rows(std::uint64_t a, std::uint64_t b, const std::string& ctx, const std::string& what) {
  if (a != 0 && b > max_table_rows / a + 1)
    throw usage_error(ctx + ": table too large: " + what + " (at most 2^24 = 16777216 rows per run)");
  const std::uint64_t r = a * b;
  if (r > max_table_rows)
    throw usage_error(ctx + ": table too large: " + what + " = " + std::to_string(r) +
                      " rows (at most 2^24 = 16777216 per run)");
  return static_cast<std::size_t>(r);
}

// Positions first .. first + n - 1 within [-2^40, 2^40].
inline void check_position_range(long long first, long long n, const std::string& ctx) {
  if (first + n - 1 > max_abs_position)
    throw usage_error(ctx + ": --start " + std::to_string(first) + " --positions " + std::to_string(n) +
                      " ends at position " + std::to_string(first + n - 1) + " (positions must be <= 2^40)");
}

inline void check_valid(const posenc::validation& v, const std::string& ctx, std::string_view scheme) {
  if (!v.ok()) throw usage_error(ctx + ": invalid " + std::string(scheme) + " config: " + v.message);
}

inline void check_status(posenc::status st, const std::string& what) {
  if (st != posenc::status::ok) throw std::runtime_error(what + ": " + posenc::to_string(st));
}

template <class T>
std::size_t first_infinite(const std::vector<T>& v) {
  std::size_t k = 0;
  while (k + 1 < v.size() && !is_infinite(v[k])) ++k;
  return k;
}

// Calls f(std::type_identity<T>{}) with T the dtype t (the --dtype read by emit_output_flags.hpp).
template <class F>
std::string with_dtype(dtype t, F&& f) {
  switch (t) {
    case dtype::f32: return f(std::type_identity<float>{});
    case dtype::bf16: return f(std::type_identity<posenc::bfloat16>{});
    case dtype::f16: return f(std::type_identity<posenc::float16>{});
    case dtype::q15:  // refused by read_output_options for these tables
    case dtype::q31: throw usage_error("--dtype q15/q31: not available for this table");
    case dtype::f64: break;
  }
  return f(std::type_identity<double>{});
}

// with_dtype for the tables that also take q15/q31 (emit_output_flags.hpp fixed_point_table).
template <class F>
std::string with_dtype_or_fixed(dtype t, F&& f) {
  if (t == dtype::q15) return f(std::type_identity<posenc::q15>{});
  if (t == dtype::q31) return f(std::type_identity<posenc::q31>{});
  return with_dtype(t, std::forward<F>(f));
}

// The one stderr line of a fixed-point table that saturated (not an error: CMSIS's convention).
template <class T>
void note_saturation(const std::string& ctx, std::uint64_t saturated, std::size_t values) {
  if constexpr (is_fixed<T>())
    if (saturated != 0)
      note(ctx + ": " + std::to_string(saturated) + " of " + std::to_string(values) + " " +
           std::string(dtype_name<T>()) + " values saturated (x >= 1 - 2^-" +
           std::to_string(posenc::fixed_format<T>::fraction_bits + 1) + " stored as 2^" +
           std::to_string(posenc::fixed_format<T>::fraction_bits) + " - 1, CMSIS-DSP's convention)");
}

inline std::string real_text(double v) { return format_hex(v); }

inline std::string list_text(const std::vector<double>& v) {
  std::string s;
  for (const double x : v) s += (s.empty() ? "" : ", ") + real_text(x);
  return s;
}

// Head h, distance k of a heads x distances table.
template <class T>
table<T> distance_table(std::string scheme, std::size_t heads, std::size_t n) {
  table<T> t;
  t.scheme = std::move(scheme);
  t.keys = {"head", "distance"};
  t.value = "bias";
  t.values.resize(heads * n);
  t.key_of = [n](std::size_t r, std::int64_t* k) {
    k[0] = static_cast<std::int64_t>(r / n);
    k[1] = static_cast<std::int64_t>(r % n);
  };
  t.shape = {heads, n};
  return t;
}

// --positions N and --start P, shared by the tables of positions.
struct position_span {
  long long start = 0, count = 0;
};

// --positions N (1 .. max_count) and --start P (min_start .. 2^40, default fallback); the last
// position must stay within 2^40.
inline position_span read_positions(const parsed_args& a, const std::string& ctx, long long max_count,
                                    long long min_start, long long fallback) {
  position_span p;
  p.count = required_integer(a, "positions", 1, max_count, ctx);
  p.start = flag_integer(a, "start", min_start, max_abs_position, fallback, ctx);
  check_position_range(p.start, p.count, ctx);
  return p;
}

}  // namespace posenc::cli::emit
