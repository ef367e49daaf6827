// shaw.hpp: Shaw et al.'s clipped relative positions (posenc/shaw/).
#pragma once

#include "posenc/laws/bucket/shaw_spec.hpp"
#include "posenc/shaw/config_fields.hpp"
#include "posenc/shaw/relative_index.hpp"
