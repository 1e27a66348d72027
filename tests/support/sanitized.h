#pragma once
// Whether this build runs under a sanitizer: GCC says so with __SANITIZE_ADDRESS__ and
// __SANITIZE_THREAD__, clang (the sanitizer builds of packaging/fullband.sh) with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define FULLBAND_ADDRESS_SANITIZED 1
#endif
#if defined(__SANITIZE_THREAD__)
#define FULLBAND_THREAD_SANITIZED 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(FULLBAND_ADDRESS_SANITIZED)
#define FULLBAND_ADDRESS_SANITIZED 1
#endif
#if __has_feature(thread_sanitizer) && !defined(FULLBAND_THREAD_SANITIZED)
#define FULLBAND_THREAD_SANITIZED 1
#endif
#endif

// True in a build under AddressSanitizer or ThreadSanitizer.
// Sanitized builds look for memory errors, undefined behaviour and races, and run 5-40x slower:
// there, tests that reproduce a figure by long training, or repeat one code path many times, run a
// short version of the same code. The Release build checks every figure in full.
constexpr bool sanitizedBuild()
{
#if defined(FULLBAND_ADDRESS_SANITIZED) || defined(FULLBAND_THREAD_SANITIZED)
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
#if defined(FULLBAND_THREAD_SANITIZED)
    return true;
#else
    return false;
#endif
}
