// Compiled only to build the precompiled header that the tests reuse (tests/pch/CMakeLists.txt).
