// alibi.hpp: every header of the ALiBi scheme (posenc/alibi/).
#pragma once

#include "posenc/alibi/bias.hpp"
#include "posenc/alibi/config.hpp"
#include "posenc/alibi/config_fields.hpp"
#include "posenc/alibi/slopes.hpp"
#include "posenc/alibi/validate.hpp"
