// sandwich.hpp: Sandwich's relative bias (posenc/sandwich/).
#pragma once

#include "posenc/sandwich/bias.hpp"
#include "posenc/sandwich/config_fields.hpp"
#include "posenc/sandwich/table.hpp"
