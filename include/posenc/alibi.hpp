// alibi.hpp: every header of the ALiBi scheme (posenc/alibi/), with its laws
// (posenc/laws/alibi/: the laws of a scheme come with its header; laws.hpp holds the shared ones).
#pragma once

#include "posenc/alibi/bias.hpp"
#include "posenc/alibi/config.hpp"
#include "posenc/alibi/config_fields.hpp"
#include "posenc/alibi/fixed_point_slopes.hpp"
#include "posenc/alibi/slopes.hpp"
#include "posenc/alibi/validate.hpp"
#include "posenc/laws/alibi/bias_table.hpp"
#include "posenc/laws/alibi/geometric_slopes.hpp"
#include "posenc/laws/alibi/monotone_bias.hpp"
#include "posenc/laws/alibi/power_of_two_slopes.hpp"
#include "posenc/laws/alibi/relative_bias.hpp"
