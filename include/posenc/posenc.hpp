// posenc.hpp: the umbrella header of the core (posenc::posenc): every scheme and the laws. No
// code of its own.
//
// Depends on the C++20 standard library alone (it compiles for bare-metal targets:
// arm-none-eabi-g++ -std=c++20 -fsyntax-only). The verify layer (posenc/verify/: MPFR oracles,
// the registry) is separate and is never included from here. Including one scheme's header (e.g.
// posenc/rope/table.hpp, posenc/alibi.hpp) costs less to compile when that is all you use.
#pragma once

#include <posenc/rotary_layout.hpp>
#include <posenc/status.hpp>
#include <posenc/version.hpp>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/numeric/format.hpp>

#include <posenc/math/double_double.hpp>
#include <posenc/math/exp_log.hpp>
#include <posenc/math/pow.hpp>
#include <posenc/math/round.hpp>
#include <posenc/math/round_fixed.hpp>
#include <posenc/math/sqrt.hpp>
#include <posenc/math/trig.hpp>
// The scheme-neutral geometric kernels and the one cos/sin table engine under every scheme.
#include <posenc/math/geometric_fixed.hpp>
#include <posenc/math/geometric_frequency.hpp>
#include <posenc/math/log_ratio.hpp>
#include <posenc/math/rational_power.hpp>
#include <posenc/math/rational_power_fixed.hpp>
#include <posenc/math/sincos_geometric.hpp>
#include <posenc/math/sincos_product.hpp>
#include <posenc/math/sincos_source.hpp>
#include <posenc/math/sincos_table.hpp>

// RoPE: config and its checks, frequencies and angles of every scaling, tables (fixed-size and on
// the caller's memory), application to q/k, layouts, framework policies, model presets.
#include <posenc/rope/angle.hpp>
#include <posenc/rope/apply.hpp>
#include <posenc/rope/checked_config.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/config_fields.hpp>
#include <posenc/rope/dinov3.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/fixed_point_table.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/layout.hpp>
#include <posenc/rope/leaky_rerope.hpp>
#include <posenc/rope/linear_attention.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/mrope_positions.hpp>
#include <posenc/rope/nd.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/rope/real_position.hpp>
#include <posenc/rope/remapped_position.hpp>
#include <posenc/rope/rerope.hpp>
#include <posenc/rope/scaling_names.hpp>
#include <posenc/rope/streaming_cache.hpp>
#include <posenc/rope/table.hpp>
#include <posenc/rope/turns.hpp>
#include <posenc/rope/validate.hpp>

// The other schemes, one umbrella each.
#include <posenc/alibi.hpp>
#include <posenc/attn_temperature.hpp>
#include <posenc/deberta.hpp>
#include <posenc/kerple.hpp>
#include <posenc/logn.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/shaw.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/t5.hpp>
#include <posenc/transformer_xl.hpp>
#include <posenc/xpos.hpp>

// Laws any table can be checked against, at compile time or at run time.
#include <posenc/laws.hpp>
