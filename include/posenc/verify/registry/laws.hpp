// registry/laws.hpp: every law of a RoPE table, listed once (every_law), with the configs it applies
// to and the two places it is checked from:
//  - core: the constexpr law of posenc/laws/ that defines it. A user static_asserts it on a small
//    table; verify/law_measures/table_laws.hpp runs the same function at run time on a table of any size
//    (too large for constant evaluation). Laws of the frequencies alone have none.
//  - measured: the MPFR checker of posenc/verify/law_measures/ that measures the same quantity exactly, held
//    to the same bound (laws/bounds.hpp), or nullptr. Oracle tests measure exactness.
// A law tag is
//   struct L {
//     static constexpr const char* name;                       // as in reports
//     static constexpr bool applies_to(const rope::config&);   // which configs' tables obey it
//     static constexpr bool folded_too;                        // holds with the attention factor folded in
//     static constexpr const char* measured;                   // the MPFR checker, or nullptr
//     template <class V> static constexpr posenc::laws::law_result core(const table_case<V>&);  // if any
//   };
// Why a law does not apply to a config:
//  - pass_through: rotary_dim = head_dim (nothing passes through; proportional zeroes frequencies
//    instead, its rotary_dim is head_dim).
//  - monotone_frequencies: LongRoPE divides each pair by its own searched factor; proportional has
//    zero frequencies past its rotating pairs.
//  - yarn_ramp, llama3_bands: a property of that scaling only.
//  - long_range_decay: calibrated at RoFormer's setting (unscaled, rotary_dim 128, base 1e4; the
//    law's header says why).
//  - norm_preservation: rotary dims above 1024 (the law's stack vector); pass_through: heads above 512.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <cstddef>

#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rope/exactness.hpp"
#include "posenc/laws/rope/monotone_frequencies.hpp"
#include "posenc/laws/rope/norm_preservation.hpp"
#include "posenc/laws/rope/pass_through.hpp"
#include "posenc/laws/rotary/composition.hpp"
#include "posenc/laws/rotary/identity_at_zero.hpp"
#include "posenc/laws/rotary/layout_equivalence.hpp"
#include "posenc/laws/rotary/pair_copies.hpp"
#include "posenc/laws/rotary/parity.hpp"
#include "posenc/laws/rotary/relative_dot.hpp"
#include "posenc/laws/rotary/unit_norm.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/verify/registry/fixed_point_laws.hpp"

namespace posenc::verify::registry {

namespace hana = boost::hana;

// One table under test and what its laws need: the config it claims to be, the same table in the
// other layout (nullptr: layout equivalence is not checked), the head size of pass-through, and
// exactness's options (max_ulp; fold_attention: the table holds af cos, af sin).
template <class V>
struct table_case {
  const V& table;
  const V* other_layout;
  const rope::config& config;
  std::size_t head_dim;
  posenc::laws::exactness_options exactness{};
};

namespace law {

namespace pl = posenc::laws;

constexpr bool every_config(const rope::config&) noexcept { return true; }

struct exactness {
  static constexpr const char* name = "exactness";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = true;
  static constexpr bool fixed_point_too = true;
  static constexpr const char* measured = "oracle tests: every entry against MPFR (verify/rope_table_oracle.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::exactness(t.table, t.config, t.exactness);
  }
};
struct unit_norm {
  static constexpr const char* name = "unit norm";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = false;
  static constexpr bool fixed_point_too = true;
  static constexpr const char* measured = "check_orthogonality (verify/law_measures/orthogonality.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::unit_norm(t.table);
  }
};
struct pair_copies {
  static constexpr const char* name = "pair copies";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = true;
  static constexpr bool fixed_point_too = true;
  static constexpr const char* measured = nullptr;  // a bit law: nothing to measure
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::pair_copies(t.table);
  }
};
struct identity_at_zero {
  static constexpr const char* name = "identity at 0";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = false;
  static constexpr const char* measured = nullptr;  // a bit law
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::identity_at_zero(t.table);
  }
};
struct layout_equivalence {
  static constexpr const char* name = "layout equivalence";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = true;
  static constexpr bool fixed_point_too = true;
  static constexpr const char* measured =
      "check_table_layouts, check_rotate_then_permute (verify/law_measures/layout.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    const bool il = t.table.layout() == rope::layout::interleaved;
    return il ? pl::layout_equivalence(t.table, *t.other_layout) : pl::layout_equivalence(*t.other_layout, t.table);
  }
};
struct relative_dot {
  static constexpr const char* name = "relative dot";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = false;
  static constexpr bool fixed_point_too = true;
  static constexpr const char* measured = "check_relative_dot (verify/law_measures/relative_dot.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::relative_dot(t.table, {.differences = {1, pl::middle_row, 0, 0}});
  }
};
struct composition {
  static constexpr const char* name = "composition";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = false;
  static constexpr bool fixed_point_too = true;
  static constexpr const char* measured = "check_composition (verify/law_measures/composition.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::composition(t.table, {.factors = {1, pl::middle_row, 0, 0}});
  }
};
struct norm_preservation {
  static constexpr const char* name = "norm preservation";
  static constexpr bool applies_to(const rope::config& c) noexcept {
    return static_cast<std::size_t>(rope::rotary_dim(c)) <= pl::detail::norm_max_rotary_dim;
  }
  static constexpr bool folded_too = false;
  static constexpr const char* measured = "check_norm_preservation (verify/law_measures/norm.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::norm_preservation(t.table);
  }
};
struct pass_through {
  static constexpr const char* name = "pass-through";
  static constexpr bool applies_to(const rope::config& c) noexcept {
    return rope::rotary_dim(c) < c.head_dim && static_cast<std::size_t>(c.head_dim) <= pl::pass_through_max_head_dim;
  }
  static constexpr bool folded_too = true;  // the kernel reads the table's values, the law only the tail
  static constexpr const char* measured = "check_pass_through (verify/law_measures/pass_through.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::pass_through(t.table, t.head_dim);
  }
};
struct monotone_frequencies {
  static constexpr const char* name = "monotone frequencies";
  static constexpr bool applies_to(const rope::config& c) noexcept {
    return c.rope_type != rope::scaling::longrope && !c.proportional;
  }
  static constexpr bool folded_too = true;  // a law of the config's frequencies
  static constexpr bool fixed_point_too = true;
  static constexpr const char* measured = "check_inv_freq_decreasing (verify/law_measures/decreasing.hpp)";
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::monotone_frequencies(t.config);
  }
};
struct parity {
  static constexpr const char* name = "parity";
  static constexpr bool applies_to(const rope::config& c) noexcept { return every_config(c); }
  static constexpr bool folded_too = true;
  static constexpr const char* measured = nullptr;  // a bit law
  // Vacuous (checked == 0) on a table without rows at negative positions.
  template <class V>
  static constexpr pl::law_result core(const table_case<V>& t) noexcept {
    return pl::parity(t.table);
  }
};
// Laws of the frequencies alone, measured exactly (no table law in the core).
struct yarn_ramp {
  static constexpr const char* name = "YaRN ramp";
  static constexpr bool applies_to(const rope::config& c) noexcept { return c.rope_type == rope::scaling::yarn; }
  static constexpr bool folded_too = true;
  static constexpr bool fixed_point_too = true;  // a law of the frequencies
  static constexpr const char* measured = "check_yarn_ramp (verify/law_measures/yarn_ramp.hpp)";
};
struct llama3_bands {
  static constexpr const char* name = "Llama-3 bands";
  static constexpr bool applies_to(const rope::config& c) noexcept { return c.rope_type == rope::scaling::llama3; }
  static constexpr bool folded_too = true;
  static constexpr bool fixed_point_too = true;  // a law of the frequencies
  static constexpr const char* measured = "check_llama3_bands (verify/law_measures/llama3_bands.hpp)";
};
struct long_range_decay {
  static constexpr const char* name = "long-range decay";
  static constexpr bool applies_to(const rope::config& c) noexcept {
    return c.rope_type == rope::scaling::default_ && !c.proportional && rope::rotary_dim(c) == 128 &&
           c.rope_theta == 10000.0;
  }
  static constexpr bool folded_too = true;
  static constexpr bool fixed_point_too = true;  // a law of the frequencies
  static constexpr const char* measured = "check_long_range_decay (verify/law_measures/long_range_decay.hpp)";
};

}  // namespace law

template <class... L>
using law_list = hana::tuple<hana::type<L>...>;

// Every law, once.
inline constexpr auto every_law =
    law_list<law::exactness, law::unit_norm, law::pair_copies, law::identity_at_zero, law::layout_equivalence,
             law::relative_dot, law::composition, law::norm_preservation, law::pass_through, law::monotone_frequencies,
             law::parity, law::yarn_ramp, law::llama3_bands, law::long_range_decay>{};

// Whether Law has a core (constexpr, posenc/laws/) definition over a table of view type V.
template <class Law, class V>
inline constexpr bool has_core = requires(const table_case<V>& t) { Law::core(t); };

}  // namespace posenc::verify::registry
