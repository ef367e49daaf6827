// The compiling twin of the laws_* and require_function_* compile-fail tests: the same laws on
// unmodified tables hold, so require(r) and require<r>() are true and every static_assert passes.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
constexpr auto hs = rope::make_table<float, 8, 16, rope::layout::half_split>(cfg).value;
constexpr auto il = rope::make_table<float, 8, 16, rope::layout::interleaved>(cfg).value;
static_assert(laws::require(laws::unit_norm(laws::view(hs))));
static_assert(laws::require<laws::unit_norm(laws::view(hs))>());
static_assert(laws::require(laws::exactness(laws::view(hs), cfg)));
static_assert(laws::require<laws::exactness(laws::view(hs), cfg)>());
static_assert(laws::require(laws::pair_copies(laws::view(il))));
static_assert(laws::require<laws::pair_copies(laws::view(il))>());
static_assert(laws::require(laws::identity_at_zero(laws::view(hs))));
static_assert(laws::require<laws::identity_at_zero(laws::view(hs))>());
static_assert(laws::require(laws::layout_equivalence(laws::view(il), laws::view(hs))));
static_assert(laws::require<laws::layout_equivalence(laws::view(il), laws::view(hs))>());
static_assert(laws::require(laws::relative_dot(laws::view(hs))));
static_assert(laws::require<laws::relative_dot(laws::view(hs))>());
static_assert(laws::require(laws::composition(laws::view(il))));
static_assert(laws::require<laws::composition(laws::view(il))>());
static_assert(laws::require(laws::norm_preservation(laws::view(hs))));
static_assert(laws::require<laws::norm_preservation(laws::view(hs))>());
static_assert(laws::require(laws::pass_through(laws::view(il), 24)));
static_assert(laws::require<laws::pass_through(laws::view(il), 24)>());
static_assert(laws::require(laws::monotone_frequencies(cfg)));
static_assert(laws::require<laws::monotone_frequencies(cfg)>());
constexpr double inv_freq[5] = {1.0, 0.5, 0.25, 0.125, 0.0625};
static_assert(laws::require(laws::monotone_frequencies(inv_freq)));
static_assert(laws::require<laws::monotone_frequencies(inv_freq)>());
// parity: rows at -8 .. 7 mirrored from rows 0 .. 8
struct signed_table {
  float cos[16][16], sin[16][16];
};
constexpr signed_table mirror() {
  const auto t = rope::make_table<float, 9, 16>(cfg).value;
  signed_table s{};
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 16; ++k) {
      const int src = r < 8 ? 8 - r : r - 8;
      s.cos[r][k] = t.cos[src * 16 + k];
      s.sin[r][k] = r < 8 ? -t.sin[src * 16 + k] : t.sin[src * 16 + k];
    }
  return s;
}
constexpr signed_table s = mirror();
static_assert(laws::require(laws::parity(laws::signed_view(s.cos, s.sin, rope::layout::half_split, -8))));
static_assert(laws::require<laws::parity(laws::signed_view(s.cos, s.sin, rope::layout::half_split, -8))>());
