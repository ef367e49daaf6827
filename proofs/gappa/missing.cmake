# certificate_gappa_missing: fails, naming what is missing (proofs/gappa/certificates.cmake).
message(FATAL_ERROR "${WHY}")
