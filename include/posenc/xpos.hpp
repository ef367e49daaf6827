// xpos.hpp: every header of the XPOS scale (posenc/xpos/); the rotation is posenc/rope/'s.
#pragma once

#include "posenc/xpos/config.hpp"
#include "posenc/xpos/config_fields.hpp"
#include "posenc/xpos/scale.hpp"
#include "posenc/xpos/validate.hpp"
