#pragma once
// Counts the calls to malloc while a piece of code runs, for the tests that prove a step loop
// allocates nothing. A normal build interposes the C library's malloc (glibc: the definition below
// forwards to __libc_malloc; operator new goes through it). Under AddressSanitizer or
// ThreadSanitizer the sanitizer owns malloc, so the count comes from its allocation hook instead.
// This header defines malloc: include it in one source file of a test executable, never more.
#include "support/sanitized.h"

#include <atomic>
#include <cstddef>

#if defined(FULLBAND_ADDRESS_SANITIZED) || defined(FULLBAND_THREAD_SANITIZED)
#define FULLBAND_SANITIZER_ALLOCATOR 1
#endif

#ifdef FULLBAND_SANITIZER_ALLOCATOR
// From the sanitizers' allocator interface (compiler-rt's sanitizer/allocator_interface.h, which
// GCC does not install); the runtime of every GCC and clang sanitizer defines it.
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*mallocHook)(const volatile void *, std::size_t),
                                                        void (*freeHook)(const volatile void *));
#endif

namespace {
std::atomic<bool> counting { false };
std::atomic<long> mallocs { 0 };

void countOne()
{
    if (counting.load(std::memory_order_relaxed)) mallocs.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

#ifdef FULLBAND_SANITIZER_ALLOCATOR
namespace {
void mallocHook(const volatile void *, std::size_t) { countOne(); }
void freeHook(const volatile void *) {}
const int hooksInstalled = __sanitizer_install_malloc_and_free_hooks(mallocHook, freeHook);
} // namespace
#else
extern "C" void *__libc_malloc(std::size_t);

extern "C" void *malloc(std::size_t size)
{
    countOne();
    return __libc_malloc(size);
}
#endif

namespace {

// Runs f with malloc counted; returns the number of calls.
template <typename F>
long countMallocs(F &&f)
{
    mallocs = 0;
    counting = true;
    f();
    counting = false;
    return mallocs.load();
}

} // namespace
