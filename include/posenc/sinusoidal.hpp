// sinusoidal.hpp: every header of the absolute sinusoidal scheme (posenc/sinusoidal/).
#pragma once

#include "posenc/sinusoidal/config.hpp"
#include "posenc/sinusoidal/config_fields.hpp"
#include "posenc/sinusoidal/fixed_point_table.hpp"
#include "posenc/sinusoidal/table.hpp"
#include "posenc/sinusoidal/validate.hpp"
