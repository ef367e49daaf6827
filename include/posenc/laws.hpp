// laws.hpp: every constexpr law of posenc/laws/ (core: standard library only). docs/laws.md.
#pragma once

#include "posenc/laws/exactness.hpp"
#include "posenc/laws/identity_at_zero.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/layout_equivalence.hpp"
#include "posenc/laws/pair_copies.hpp"
#include "posenc/laws/require.hpp"
#include "posenc/laws/table_view.hpp"
#include "posenc/laws/unit_norm.hpp"
