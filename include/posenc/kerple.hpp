// kerple.hpp: KERPLE's log and power biases (posenc/kerple/).
#pragma once

#include "posenc/kerple/bias.hpp"
#include "posenc/kerple/config_fields.hpp"
#include "posenc/kerple/table.hpp"
