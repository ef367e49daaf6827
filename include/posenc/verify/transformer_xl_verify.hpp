// transformer_xl_verify.hpp: verify Transformer-XL's or XLNet's relative sinusoid table, posenc's
// own or someone else's, against the MPFR oracle (transformer_xl_oracle.hpp, sinusoid_oracle.hpp)
// and the registry's sinusoid laws (`posenc verify transformer-xl`; scheme_verify.hpp explains).
//
// Each table is laid out as `posenc emit <scheme> --format bin` writes it; a request that cannot be
// carried out throws std::invalid_argument with one line naming it. Not constexpr; links MPFR.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "posenc/sinusoidal.hpp"
#include "posenc/transformer_xl.hpp"
#include "posenc/verify/registry/transformer_xl.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/sinusoid_exact.hpp"
#include "posenc/verify/transformer_xl_oracle.hpp"

namespace posenc::verify {

// ---- Transformer-XL / XLNet ---------------------------------------------------------------------

// Its rows (relative positions as the frameworks build them) of d_model elements [sin | cos],
// `posenc emit transformer-xl`'s table.
struct transformer_xl_verify_request {
  transformer_xl::config config{};
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

inline verify_report verify_transformer_xl(const transformer_xl_verify_request& q,
                                           std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = transformer_xl::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid Transformer-XL config: ") + v.message);
  const std::vector<std::int64_t> positions = transformer_xl_positions(q.config);
  const auto d = static_cast<std::size_t>(q.config.d_model);
  // inv_freq_i = 1 / 10000^(2i / d_model), [sin | cos]: the paper's exponent in the concat layout.
  const sinusoidal::config as_sinusoid{.dim = q.config.d_model, .layout = sinusoidal::layout::concat};
  verify_report rep = sv::indexed_report("transformer-xl", q.description, {"row", "element"}, {positions.size(), d},
                                         positions.size() * d, q.max_ulp);
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    sv::sinusoid_exact(as_sinusoid, positions, first, count, wanted, out);
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(static_cast<std::size_t>(transformer_xl::rows(q.config)) * d);
    sv::check_own(transformer_xl::fill_table<T>(q.config, std::span<T>(out)), dtype_of<T>(), "Transformer-XL table");
    return out;
  };
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::string_view skip,
                                 std::vector<law_findings>& out) {
    registry::transformer_xl_scheme::tables<T> t;
    t.config = q.config;
    t.values.assign(v.begin(), v.end());
    t.positions = positions;
    sv::run_laws<registry::transformer_xl_scheme>(
        t, dt, skip, [](std::string_view) { return std::string(); }, out);
  };
  sv::verify_real_tables(
      rep, tables, q.run,
      "a table of " + std::to_string(positions.size()) + " rows x " + std::to_string(d) + " elements", exact_block,
      [&positions, d](std::uint64_t i) { return sv::row_element(positions, d, i, "row"); }, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
