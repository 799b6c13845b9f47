"""The fault matrix in the test suite: the cases of tests/faultkit at test size."""
