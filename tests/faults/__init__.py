"""The fault matrix in the test suite: the cases of bench/faultkit at test size."""
