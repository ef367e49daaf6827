// The compiling twin of the laws_* compile-fail tests: the same laws on unmodified tables hold,
// so require() is true and every static_assert passes.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
constexpr auto hs = rope::make_table<float, 8, 16, rope::layout::half_split>(cfg).value;
constexpr auto il = rope::make_table<float, 8, 16, rope::layout::interleaved>(cfg).value;
static_assert(laws::require(laws::unit_norm(laws::view(hs))));
static_assert(laws::require(laws::exactness(laws::view(hs), cfg)));
static_assert(laws::require(laws::pair_copies(laws::view(il))));
static_assert(laws::require(laws::identity_at_zero(laws::view(hs))));
static_assert(laws::require(laws::layout_equivalence(laws::view(il), laws::view(hs))));
