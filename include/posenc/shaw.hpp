// shaw.hpp: Shaw et al.'s clipped relative positions (posenc/shaw/).
#pragma once

#include "posenc/shaw/config_fields.hpp"
#include "posenc/shaw/relative_index.hpp"
