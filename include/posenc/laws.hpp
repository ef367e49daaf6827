// laws.hpp: the constexpr laws shared by schemes (core: standard library only). docs/laws.md. The
// laws of one scheme come with the scheme's header (posenc/<scheme>.hpp includes
// posenc/laws/<scheme>/ and its bucket spec), and posenc.hpp includes every one.
#pragma once

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/bucket/bounded.hpp"
#include "posenc/laws/bucket/monotone.hpp"
#include "posenc/laws/bucket/saturation.hpp"
#include "posenc/laws/bucket/sign_partition.hpp"
#include "posenc/laws/bucket/table.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/require.hpp"
#include "posenc/laws/rope/exactness.hpp"
#include "posenc/laws/rope/monotone_frequencies.hpp"
#include "posenc/laws/rope/norm_preservation.hpp"
#include "posenc/laws/rope/pass_through.hpp"
#include "posenc/laws/rope/table_view.hpp"
#include "posenc/laws/rotary/composition.hpp"
#include "posenc/laws/rotary/identity_at_zero.hpp"
#include "posenc/laws/rotary/layout_equivalence.hpp"
#include "posenc/laws/rotary/pair_copies.hpp"
#include "posenc/laws/rotary/parity.hpp"
#include "posenc/laws/rotary/relative_dot.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/laws/rotary/unit_norm.hpp"
#include "posenc/laws/sinusoid/relative_dot.hpp"
#include "posenc/laws/sinusoid/shift.hpp"
#include "posenc/laws/sinusoid/table.hpp"
