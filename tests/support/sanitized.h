#pragma once
// True in a build under AddressSanitizer or ThreadSanitizer (GCC defines these macros).
// Sanitized builds look for memory errors, undefined behaviour and races, and run 5-40x slower:
// there, tests that reproduce a figure by long training, or repeat one code path many times, run a
// short version of the same code. The Release build checks every figure in full.
constexpr bool sanitizedBuild()
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#else
    return false;
#endif
}

// True under ThreadSanitizer. Its build takes only the tests that start threads of FullBand's own
// (tests/CMakeLists.txt); inside them, a function that starts none checks only figures, which the
// Release and AddressSanitizer builds already check, at 20-40x the Release time here.
constexpr bool threadSanitizedBuild()
{
#if defined(__SANITIZE_THREAD__)
    return true;
#else
    return false;
#endif
}
