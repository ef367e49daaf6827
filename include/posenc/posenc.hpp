// posenc.hpp: the umbrella header of the core (posenc::posenc). No code of its own.
//
// Depends on the C++20 standard library alone. The verify layer (posenc/verify/) is separate and
// is never included from here.
#pragma once

#include <posenc/version.hpp>
#include <posenc/status.hpp>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/numeric/format.hpp>

#include <posenc/math/double_double.hpp>
#include <posenc/math/round.hpp>
#include <posenc/math/sqrt.hpp>
#include <posenc/math/exp_log.hpp>
#include <posenc/math/pow.hpp>
#include <posenc/math/trig.hpp>
#include <posenc/math/rope_theta.hpp>
#include <posenc/math/rope_angle.hpp>
