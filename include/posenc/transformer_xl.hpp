// transformer_xl.hpp: Transformer-XL's and XLNet's relative sinusoids (posenc/transformer_xl/).
#pragma once

#include "posenc/transformer_xl/config_fields.hpp"
#include "posenc/transformer_xl/positions.hpp"
