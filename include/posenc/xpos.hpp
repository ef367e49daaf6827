// xpos.hpp: every header of the XPOS scale (posenc/xpos/; the rotation is posenc/rope/'s), with its
// laws (posenc/laws/xpos/: the laws of a scheme come with its header; laws.hpp holds the shared ones).
#pragma once

#include "posenc/laws/xpos/relative_scale.hpp"
#include "posenc/xpos/config.hpp"
#include "posenc/xpos/config_fields.hpp"
#include "posenc/xpos/fixed_point_scale.hpp"
#include "posenc/xpos/scale.hpp"
#include "posenc/xpos/validate.hpp"
