// doctest's runner, compiled once and linked into every doctest program: its
// implementation is the largest part of doctest, and compiling it into each
// program cost CI's two cores about a minute per build.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
