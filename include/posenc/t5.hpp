// t5.hpp: every header of the T5 relative-bucket scheme (posenc/t5/).
#pragma once

#include "posenc/laws/bucket/t5_spec.hpp"
#include "posenc/t5/bucket.hpp"
#include "posenc/t5/config.hpp"
#include "posenc/t5/config_fields.hpp"
#include "posenc/t5/validate.hpp"
