// arm_heap_twin.cpp: check_no_heap.cmake's twin, a run-time allocation; the check must fail on it.
int* posenc_twin_allocates(unsigned n) { return new int[n]; }
