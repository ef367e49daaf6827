// scheme_verify_report.hpp: what verifying the table of a scheme other than RoPE found
// (verify/scheme_verify.hpp, `posenc verify <scheme>`): per dtype the comparison of every entry with
// RN_T of its exact value (the same dtype_findings as a RoPE report, rope_verify_report.hpp), or,
// for an integer-valued table (buckets, indices), the comparison with the exact integers; and every
// law of the registry that applies (verify/registry/schemes.hpp).
//
// The tables are small (at most 2^24 entries, one pass), so there are no shards and no merge. An
// entry is named by its index in the table's row order (dtype_findings' table_entry::position; its
// element is 0) and by the words the scheme uses for it ("head 3, query 10, key 7"), kept beside it.
// Not constexpr (the verify layer is test- and tool-side).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "posenc/verify/rope_verify_report.hpp"

namespace posenc::verify {

// One dtype's findings, with the worst entry and the first failure named in the scheme's words.
struct scheme_dtype_findings {
  dtype_findings findings{};
  std::string worst_at{}, first_failure_at{};
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
};

struct scheme_verify_report {
  std::string scheme{};             // "alibi", "t5-bucket", ... (the CLI's name)
  std::string description{};        // the table: posenc's own or the file's name, its shape, the config
  std::vector<std::string> keys{};  // what each index of the table is ("head", "distance")
  std::vector<std::uint64_t> shape{};
  std::uint64_t max_ulp_allowed = 0;
  bool integer_valued = false;
  std::vector<scheme_dtype_findings> dtypes{};  // real-valued tables
  integer_findings integers{};                  // integer-valued tables
  std::vector<law_findings> laws{};
  double seconds = 0;

  bool passed() const noexcept {
    if (integer_valued && !integers.passed()) return false;
    for (const scheme_dtype_findings& d : dtypes)
      if (!d.findings.passed()) return false;
    for (const law_findings& l : laws)
      if (l.ran && !l.holds) return false;
    return true;
  }
};

}  // namespace posenc::verify
