// logn.hpp: log-n attention scaling (posenc/logn/).
#pragma once

#include "posenc/logn/config_fields.hpp"
#include "posenc/logn/factor.hpp"
