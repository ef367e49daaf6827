// hf_config.hpp: RoPE's config.json reader and the file reader, as this header held them before
// each scheme's reader had its own (io/rope_hf_config.hpp, io/alibi_hf_config.hpp,
// io/t5_hf_config.hpp; io/read_text_file.hpp). Kept so that code including it still builds.
#pragma once

#include "posenc/io/read_text_file.hpp"
#include "posenc/io/rope_hf_config.hpp"
