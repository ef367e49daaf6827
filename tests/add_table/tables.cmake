# The tables every posenc_add_table test generates (in this tree, after find_package, cross-compiled),
# one list so that the checkers (check_tables.cpp, cross_tables.cpp) and the builds cannot drift:
# one from a shipped config.json, four from explicit flags, three schemes, every dtype.
function(posenc_test_add_tables target hf_config position_ids)
  # Llama-3.1-8B's config.json: llama3 scaling, half-split; 32 positions keep the constexpr twin cheap.
  posenc_add_table(${target} llama31_bf16 SCHEME rope HF_CONFIG "${hf_config}" DTYPE bf16 ARGS --positions 32)
  posenc_add_table(${target} rope_f32 SCHEME rope DTYPE f32
                   ARGS --head-dim 64 --rope-theta 10000 --positions 256 --start 1000 --layout interleaved)
  # The same table compact (--layout pairs: one cos and sin per pair, half the flash).
  posenc_add_table(${target} rope_f32_pairs SCHEME rope DTYPE f32
                   ARGS --head-dim 64 --rope-theta 10000 --positions 256 --start 1000 --layout pairs)
  # The call's two outputs besides the rule: HEADER_VARIABLE, and with SCOPE PUBLIC the directory in
  # the target's usage requirements (for a library whose own headers include the table).
  posenc_add_table(${target} alibi_f16 SCHEME alibi DTYPE f16 ARGS --heads 12 SCOPE PUBLIC HEADER_VARIABLE _alibi)
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/posenc_tables/${target}")
  get_target_property(_interface ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _alibi STREQUAL "${_dir}/alibi_f16.h" OR NOT "$<BUILD_INTERFACE:${_dir}>" IN_LIST _interface)
    message(FATAL_ERROR "posenc_add_table: HEADER_VARIABLE is '${_alibi}', the interface include path '${_interface}'")
  endif()
  # An input file named in ARGS, and so in DEPENDS: text tokens, a 2 x 2 image at t = 3, text again.
  posenc_add_table(${target} mrope_f64 SCHEME mrope DTYPE f64
                   ARGS --head-dim 16 --mrope-section 2,3,3 --rope-theta 1000000 --position-ids "${position_ids}"
                   DEPENDS "${position_ids}")
endfunction()
