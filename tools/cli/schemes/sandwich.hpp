// schemes/sandwich.hpp: Sandwich's biases on the command line, one place: its flags and the one
// reader of its config (which `emit` and `verify` both call), `posenc emit sandwich`
// (sandwich::bias; columns head,distance,bias) and, with the verify layer (POSENC_CLI_HAVE_VERIFY),
// `posenc verify` of the same table. schemes.hpp lists it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/sandwich.hpp>
#include <posenc/status.hpp>

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/sandwich_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec sandwich_table_flags[] = {
    {"distances", flag_kind::value, "N", "distances 0 .. N-1"},
};
inline constexpr auto sandwich_flags = with_config_flags<sandwich::config_fields>(sandwich_table_flags);

inline sandwich::config read_sandwich_config(const parsed_args& a, const std::string& ctx) {
  sandwich::config c{};
  read_config_fields<sandwich::config_fields>(a, ctx, c);
  check_valid(sandwich::validate(c), ctx, "Sandwich");
  return c;
}

// Sandwich's work limit: rows x dim/2 cosine terms per run (2^28: about two minutes here).
inline constexpr std::uint64_t max_sandwich_terms = std::uint64_t{1} << 28;

inline std::string emit_sandwich(const parsed_args& a, const table_options& o) {
  const sandwich::config c = read_sandwich_config(a, o.ctx);
  const auto n =
      static_cast<std::size_t>(required_integer(a, "distances", 1, static_cast<long long>(max_table_rows), o.ctx));
  const auto heads = static_cast<std::size_t>(c.heads);
  const std::size_t rows =
      table_rows(heads, n, o.ctx, "--heads " + std::to_string(heads) + " x --distances " + std::to_string(n));
  // Each bias sums dim/2 cosines (about 0.5 us each here): cap the work, not only the rows.
  const auto terms = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(c.dim / 2);
  if (terms > max_sandwich_terms)
    throw usage_error(o.ctx + ": table too costly: --heads x --distances x dim/2 = " + std::to_string(terms) +
                      " cosine terms (at most 2^28 = 268435456 per run)");
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t = distance_table<T>("sandwich", heads, n);
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t k = 0; k < n; ++k) {
        const posenc::result<T> r = sandwich::bias<T>(c, static_cast<int>(h), static_cast<std::int64_t>(k));
        check_status(r.error, "Sandwich bias");
        t.values[h * n + k] = r.value;
      }
    t.index_notes = {"[h][k]: head h, distance k: (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) / (8 (h + 1) / H)"};
    t.params = {{"dim", std::to_string(c.dim)},
                {"heads", std::to_string(c.heads)},
                {"distances", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

inline constexpr scheme_command sandwich_command{"sandwich", "sandwich --dim D --heads H --distances N", sandwich_flags,
                                                 true, emit_sandwich};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command sandwich_commands[] = {sandwich_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_sandwich(const parsed_args& a, const options& o) {
  pv::sandwich_verify_request q;
  q.run = o.run;
  q.config = emit::read_sandwich_config(a, o.ctx);
  q.distances =
      static_cast<std::size_t>(emit::required_integer(a, "distances", 1, static_cast<long long>(max_entries), o.ctx));
  const auto heads = static_cast<std::uint64_t>(q.config.heads);
  check_entries(heads * q.distances, o,
                "--heads " + std::to_string(heads) + " x --distances " + std::to_string(q.distances));
  // The oracle sums dim/2 cosines at about 450 bits per entry: cap the work of a run (2^22 terms,
  // about 20 s on one core); --shard K/N shares a table's terms among N runs.
  const std::uint64_t terms = heads * q.distances * static_cast<std::uint64_t>(q.config.dim / 2);
  if (terms / o.run.shard.count > (std::uint64_t{1} << 22))
    throw usage_error(o.ctx + ": table too costly to verify: --heads x --distances x dim/2 = " + std::to_string(terms) +
                      " MPFR cosines (at most 2^22 = 4194304 per run: give --shard K/N)");
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; distances 0 .. " + std::to_string(q.distances - 1) + "; dim " +
                  std::to_string(q.config.dim) + ", heads " + std::to_string(q.config.heads);
  return verify_real(o, {heads, q.distances}, "bias",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_sandwich(q, in); });
}

inline constexpr verify_scheme sandwich_verify{"sandwich", run_sandwich, false};
inline constexpr verify_scheme sandwich_verifiers[] = {sandwich_verify};

}  // namespace posenc::cli::verify_schemes
#endif
