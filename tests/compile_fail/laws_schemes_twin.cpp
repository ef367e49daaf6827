// The compiling twin of the compile-fail tests of the scheme laws (laws_sinusoid_*, laws_alibi_*,
// laws_bucket_*, laws_xpos_*, laws_temperature_*, and require_function_ of alibi_geometric_slopes and bucket_monotone):
// the same laws on unmodified tables hold, so require(r) and require<r>() are true.
#include <posenc/alibi.hpp>
#include <posenc/attn_temperature.hpp>
#include <posenc/deberta.hpp>
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>
#include <posenc/shaw.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/t5.hpp>
#include <posenc/xpos.hpp>

namespace laws = posenc::laws;
namespace sn = posenc::sinusoidal;
namespace rope = posenc::rope;

constexpr sn::config scfg{.dim = 16};
constexpr auto st = sn::make_table<float, 16, 16>(scfg).value;
static_assert(laws::require(laws::sinusoid_shift(laws::sinusoid_table<float>{st, scfg})));
static_assert(laws::require<laws::sinusoid_shift(laws::sinusoid_table<float>{st, scfg})>());
constexpr sn::config fcfg{.dim = 16, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
constexpr auto ft = sn::make_table<double, 16, 16>(fcfg, -8).value;
static_assert(laws::require(laws::sinusoid_relative_dot(laws::sinusoid_table<double>{ft, fcfg, -8})));
static_assert(laws::require<laws::sinusoid_relative_dot(laws::sinusoid_table<double>{ft, fcfg, -8})>());

constexpr posenc::alibi::config a12{.heads = 12};
constexpr auto m12 = posenc::alibi::make_slopes<float, 12>(a12).value;
static_assert(laws::require(laws::alibi_geometric_slopes(m12, a12)));
static_assert(laws::require<laws::alibi_geometric_slopes(m12, a12)>());
constexpr posenc::alibi::config a8{.heads = 8};
constexpr float m8[8] = {0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f};
static_assert(laws::require(laws::alibi_power_of_two_slopes(m8, a8)));
static_assert(laws::require<laws::alibi_power_of_two_slopes(m8, a8)>());
constexpr posenc::alibi::config a2{.heads = 2};
constexpr auto b2 = posenc::alibi::make_symmetric_bias_table<float, 2, 6, 6>(a2).value;
static_assert(laws::require(laws::alibi_relative_bias(laws::alibi_bias_table<float>{b2, 2, 6, 6})));
static_assert(laws::require<laws::alibi_relative_bias(laws::alibi_bias_table<float>{b2, 2, 6, 6})>());
static_assert(laws::require(laws::alibi_monotone_bias(laws::alibi_bias_table<float>{b2, 2, 6, 6, 0, 0, true})));
static_assert(laws::require<laws::alibi_monotone_bias(laws::alibi_bias_table<float>{b2, 2, 6, 6, 0, 0, true})>());

constexpr posenc::t5::config t5b{};
constexpr auto tb = posenc::t5::make_buckets<200>(t5b).value;
static_assert(laws::require(laws::bucket_monotone(laws::bucket_table<int>{tb, -200}, laws::t5_bucket_spec(t5b))));
static_assert(laws::require<laws::bucket_monotone(laws::bucket_table<int>{tb, -200}, laws::t5_bucket_spec(t5b))>());
constexpr int shaw_idx[17] = {0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8};
static_assert(laws::require(laws::bucket_bounded(laws::bucket_table<int>{shaw_idx, -8}, laws::shaw_bucket_spec(4))));
static_assert(laws::require<laws::bucket_bounded(laws::bucket_table<int>{shaw_idx, -8}, laws::shaw_bucket_spec(4))>());
constexpr posenc::t5::config t5c{.bidirectional = false};
constexpr auto tc = posenc::t5::make_buckets<200>(t5c).value;
static_assert(laws::require(laws::bucket_saturation(laws::bucket_table<int>{tc, -200}, laws::t5_bucket_spec(t5c))));
static_assert(laws::require<laws::bucket_saturation(laws::bucket_table<int>{tc, -200}, laws::t5_bucket_spec(t5c))>());
constexpr posenc::deberta::config dcfg{.position_buckets = 16, .max_relative_positions = 40};
constexpr auto db = posenc::deberta::make_buckets<39>(dcfg).value;
static_assert(laws::require(laws::bucket_sign_partition(laws::bucket_table<std::int64_t>{db, -39},
                                                        laws::deberta_bucket_spec(dcfg))));
static_assert(laws::require<laws::bucket_sign_partition(laws::bucket_table<std::int64_t>{db, -39},
                                                        laws::deberta_bucket_spec(dcfg))>());

constexpr rope::config rcfg{.head_dim = 16, .rope_theta = 10000.0};
constexpr posenc::xpos::config xcfg{.head_dim = 16};
constexpr auto rot = rope::make_table<float, 16, 16, rope::layout::interleaved>(rcfg).value;
constexpr auto sc = posenc::xpos::make_scale_table<float, 16, 8>(xcfg).value;
constexpr auto inv = posenc::xpos::make_scale_table<float, 16, 8>(xcfg, 0, true).value;
static_assert(laws::require(laws::xpos_relative_scale(laws::view(rot), std::span<const float>(sc),
                                                      std::span<const float>(inv))));
static_assert(laws::require<laws::xpos_relative_scale(laws::view(rot), std::span<const float>(sc),
                                                      std::span<const float>(inv))>());

constexpr posenc::attn_temperature::config tcfg{.floor_scale = 16, .attn_scale = 0.25};
constexpr auto ts = posenc::attn_temperature::make_scales<float, 64>(tcfg).value;
static_assert(laws::require(laws::temperature_steps(laws::temperature_table<float>{ts, 0, 16})));
static_assert(laws::require<laws::temperature_steps(laws::temperature_table<float>{ts, 0, 16})>());
