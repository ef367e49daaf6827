# Included by tests/CMakeLists.txt (GCC preset). The sharding recipes of docs/verify.md run on real
# engines this machine starts (issue 24): GNU parallel, and a one-node Slurm cluster the script
# starts and stops itself (munged, slurmctld, slurmd, on free ports, everything under its work
# directory). Each checks `verify merge` of the shards' reports equals the one-process report bit
# for bit except the time, and that the check can fail. Without the Debian packages (parallel;
# slurm-wlm) or, for Slurm, without root, a script prints why and exits 77: ctest reports it as
# skipped, not passed.
add_test(NAME batch_gnu_parallel
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/gnu_parallel.sh $<TARGET_FILE:posenc_cli>
          ${CMAKE_CURRENT_BINARY_DIR}/batch_parallel)
add_test(NAME batch_slurm
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/slurm.sh $<TARGET_FILE:posenc_cli>
          ${CMAKE_CURRENT_BINARY_DIR}/batch_slurm)
set_tests_properties(batch_gnu_parallel batch_slurm PROPERTIES LABELS "unit" TIMEOUT 120 SKIP_RETURN_CODE 77)
