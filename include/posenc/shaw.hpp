// shaw.hpp: Shaw et al.'s clipped relative positions (posenc/shaw/).
#pragma once

#include "posenc/shaw/relative_index.hpp"
