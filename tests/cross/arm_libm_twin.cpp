// arm_libm_twin.cpp: check_no_heap.cmake's twin for libm, a run-time call of sinf (what a fold of
// posenc's scalar functions that survived into run-time code would leave); the check must fail on it.
float posenc_twin_calls_libm(float x) { return __builtin_sinf(x); }
