// laws.hpp: every constexpr law of posenc/laws/ (core: standard library only). docs/laws.md.
#pragma once

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/composition.hpp"
#include "posenc/laws/exactness.hpp"
#include "posenc/laws/identity_at_zero.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/layout_equivalence.hpp"
#include "posenc/laws/monotone_frequencies.hpp"
#include "posenc/laws/norm_preservation.hpp"
#include "posenc/laws/pair_copies.hpp"
#include "posenc/laws/parity.hpp"
#include "posenc/laws/pass_through.hpp"
#include "posenc/laws/relative_dot.hpp"
#include "posenc/laws/require.hpp"
#include "posenc/laws/table_view.hpp"
#include "posenc/laws/unit_norm.hpp"
