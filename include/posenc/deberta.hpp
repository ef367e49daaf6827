// deberta.hpp: every header of the DeBERTa log-bucket scheme (posenc/deberta/).
#pragma once

#include "posenc/deberta/bucket.hpp"
#include "posenc/deberta/config.hpp"
#include "posenc/deberta/config_fields.hpp"
#include "posenc/deberta/validate.hpp"
#include "posenc/laws/bucket/deberta_spec.hpp"
