// report.hpp: the result of one law check, usable from Catch2 or any framework.
//
// A checker measures, over every case it is given, value / bound for a quantity that the law says
// is <= bound (a bit-equality law measures 0 or 1 against 0 bound: mismatches), keeps the worst
// ratio and the first counterexample in words. passed == (every case within its bound). Not
// constexpr (test-side code, posenc/verify/ is not part of the core).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace posenc::verify::law_measures {

struct law_report {
  std::string law;             // which law, e.g. "orthogonality |c^2+s^2-1|"
  bool passed = true;          // every case within its bound
  std::size_t cases = 0;       // how many cases were checked
  std::size_t failures = 0;    // how many broke the law
  double worst_value = 0;      // the measured quantity at the worst ratio
  double worst_bound = 0;      // its bound there
  double worst_ratio = 0;      // max value / bound (bit laws: 0 pass, 1 fail)
  std::string counterexample;  // the first failing case, "" when passed

  // One case: value must be <= bound. describe() is called only for the first failure.
  template <class Describe>
  void add(double value, double bound, Describe describe) {
    ++cases;
    const double ratio = bound > 0 ? value / bound : (value > 0 ? 1.0 : 0.0);
    if (cases == 1 || ratio > worst_ratio) {
      worst_ratio = ratio;
      worst_value = value;
      worst_bound = bound;
    }
    if (!(value <= bound)) {  // NaN fails too
      if (failures == 0) counterexample = describe();
      ++failures;
      passed = false;
    }
  }
  // A bit-for-bit (or boolean) case: ok must hold.
  template <class Describe>
  void require(bool ok, Describe describe) {
    add(ok ? 0.0 : 1.0, 0.0, describe);
  }
  // Fold another report into this one (same law, more cases).
  void merge(const law_report& o) {
    if (o.cases == 0) return;
    if (cases == 0 || o.worst_ratio > worst_ratio) {
      worst_ratio = o.worst_ratio;
      worst_value = o.worst_value;
      worst_bound = o.worst_bound;
    }
    if (failures == 0 && o.failures > 0) counterexample = o.counterexample;
    cases += o.cases;
    failures += o.failures;
    passed = passed && o.passed;
  }
  std::string summary() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: %s, cases=%zu failures=%zu worst=%.3e bound=%.3e ratio=%.4f", law.c_str(),
                  passed ? "passed" : "FAILED", cases, failures, worst_value, worst_bound, worst_ratio);
    return std::string(buf) + (passed ? "" : "; first counterexample: " + counterexample);
  }
};

inline law_report make_report(const char* law) {
  law_report r;
  r.law = law;
  return r;
}

// printf into a std::string, for counterexample descriptions.
template <class... A>
std::string describe(const char* fmt, A... a) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, a...);
  return buf;
}

}  // namespace posenc::verify::law_measures
