// attn_temperature.hpp: Llama-4's attention temperature on the NoPE layers
// (posenc/attn_temperature/), with its laws (posenc/laws/attn_temperature/).
#pragma once

#include "posenc/attn_temperature/config.hpp"
#include "posenc/attn_temperature/config_fields.hpp"
#include "posenc/attn_temperature/scale.hpp"
#include "posenc/attn_temperature/validate.hpp"
#include "posenc/laws/attn_temperature/monotone.hpp"
#include "posenc/laws/attn_temperature/one_before_step.hpp"
#include "posenc/laws/attn_temperature/steps.hpp"
#include "posenc/laws/attn_temperature/table.hpp"
