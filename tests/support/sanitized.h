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
