// stats.hpp: how far a library result is from the oracle: ulp_error (against the exact value),
// same_result and ulp_distance (between two values of T; the latter from compare.hpp, which the
// verify engines share), and error_stats, the count, mismatches and ULP errors of one test with its
// worst argument, printed for ctest -V. unwrap takes the value out of a posenc::result<T> so that
// every library function compares alike. Not constexpr.
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "posenc/verify/compare.hpp"
#include "posenc/verify/exact_real.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// The value of a library result: the function itself, or .value of a posenc::result<T>.
template <class R>
auto unwrap(const R& r) {
  if constexpr (requires {
                  r.value;
                  r.error;
                }) {
    return r.value;
  } else {
    return r;
  }
}

// ---- Errors in ULPs ----

// |got - exact| in ULPs of T, the ULP being that of exact's binade in T (the subnormal quantum
// below the normal range, the top binade's ULP above it). A correctly rounded result is <= 0.5.
// Infinite got: 0 if RN_T(exact) is that infinity (got is the correct rounding), else +inf.
// NaN got: 0 if exact is NaN, else +inf.
template <class T>
double ulp_error(T got, mpfr_srcptr exact) {
  const double inf = std::numeric_limits<double>::infinity();
  if (detail::is_nan(got)) return mpfr_nan_p(exact) ? 0.0 : inf;
  if (mpfr_nan_p(exact)) return inf;
  const std::uint64_t gb = detail::to_bits64(got);
  if ((gb & ~(std::uint64_t{1} << (detail::storage_bits<T> - 1))) == detail::inf_bits<T>())
    return detail::round_into_bits<T>(exact) == gb ? 0.0 : inf;
  if (mpfr_inf_p(exact)) return inf;
  detail::mp g(64), diff(mpfr_get_prec(exact) + 64);
  detail::set_exact(g.get(), got);
  mpfr_sub(diff.get(), g.get(), exact, MPFR_RNDN);
  const long q = mpfr_zero_p(exact) ? detail::qmin<T>() : detail::ulp_exponent<T>(exact);
  mpfr_mul_2si(diff.get(), diff.get(), -q, MPFR_RNDN);
  mpfr_abs(diff.get(), diff.get(), MPFR_RNDN);
  return mpfr_get_d(diff.get(), MPFR_RNDU);
}

template <class T>
double ulp_error(T got, const exact_real& exact) {
  return ulp_error(got, exact.backend().data());
}

// Same bits, except that all NaNs are equal (the library may pick another NaN payload).
template <class T>
bool same_result(T a, T b) {
  if (detail::is_nan(a) || detail::is_nan(b)) return detail::is_nan(a) && detail::is_nan(b);
  return detail::to_bits64(a) == detail::to_bits64(b);
}

// ---- Statistics of one test: count, mismatches, ULP errors, worst argument ----
class error_stats {
 public:
  explicit error_stats(std::string name) : name_(std::move(name)) {}

  // got: the library's value; expected: the oracle's RN_T; exact: the oracle's high-precision
  // value; args: the arguments (printed with the worst case and with mismatches).
  template <class T>
  void add(T got, T expected, mpfr_srcptr exact, std::initializer_list<double> args) {
    ++count_;
    const double err = ulp_error(got, exact);
    sum_err_ += err;
    if (err > max_err_ || count_ == 1) {
      max_err_ = std::max(err, max_err_);
      worst_args_.assign(args.begin(), args.end());
    }
    if (same_result(got, expected)) return;
    ++mismatches_;
    const std::uint64_t dist = std::max<std::uint64_t>(ulp_distance(got, expected), 1);
    max_dist_ = std::max(max_dist_, dist);
    if (records_.size() < max_records) {
      std::string r = "  MISMATCH " + name_ + "(" + format_args(args) + "): got " + format_value(got) + ", expected " +
                      format_value(expected) + ", exact ";
      char buf[128];
      mpfr_snprintf(buf, sizeof buf, "%.40Re", exact);
      records_.push_back(r + buf);
    }
  }
  template <class T>
  void add(T got, T expected, const exact_real& exact, std::initializer_list<double> args) {
    add(got, expected, exact.backend().data(), args);
  }

  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t mismatches() const noexcept { return mismatches_; }
  std::uint64_t max_ulp() const noexcept { return max_dist_; }  // ULPs away from RN_T; 0 = correct
  double max_error() const noexcept { return max_err_; }        // vs the exact value; <= 0.5 if CR
  double mean_error() const noexcept { return count_ ? sum_err_ / static_cast<double>(count_) : 0.0; }

  // One summary line (plus the first mismatches) on stdout, so that ctest -V shows it.
  void print() const {
    std::printf(
        "[oracle] %-34s count=%llu mismatches=%llu max_ulp_from_CR=%llu | error vs exact: "
        "max=%.4f ulp mean=%.4f ulp, worst at (%s)\n",
        name_.c_str(), static_cast<unsigned long long>(count_), static_cast<unsigned long long>(mismatches_),
        static_cast<unsigned long long>(max_dist_), max_err_, mean_error(), format_args(worst_args_).c_str());
    for (const std::string& r : records_) std::printf("%s\n", r.c_str());
    if (mismatches_ > records_.size())
      std::printf("  ... and %llu more mismatches\n", static_cast<unsigned long long>(mismatches_ - records_.size()));
    std::fflush(stdout);
  }

  static constexpr std::size_t max_records = 12;

 private:
  template <class Range>
  static std::string format_args(const Range& args) {
    std::string s;
    char buf[80];
    for (double a : args) {
      std::snprintf(buf, sizeof buf, "%s%.17g [%a]", s.empty() ? "" : ", ", a, a);
      s += buf;
    }
    return s;
  }
  template <class T>
  static std::string format_value(T v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%a (bits 0x%llx)", detail::to_double(v),
                  static_cast<unsigned long long>(detail::to_bits64(v)));
    return buf;
  }

  std::string name_;
  std::uint64_t count_ = 0, mismatches_ = 0, max_dist_ = 0;
  double max_err_ = 0.0, sum_err_ = 0.0;
  std::vector<double> worst_args_;
  std::vector<std::string> records_;
};

}  // namespace posenc::verify
