// logn.hpp: log-n attention scaling (posenc/logn/).
#pragma once

#include "posenc/logn/factor.hpp"
