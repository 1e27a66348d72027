#pragma once
// For a kernel's test built again at a vector width (tests/CMakeLists.txt, fullband_kernel_level_tests:
// FULLBAND_KERNEL_LEVEL_V3 or _V4): why this CPU cannot run the level its kernel was compiled for, or
// null. In initTestCase: if (const char *why = kernelLevelMissing()) QSKIP(why);
inline const char *kernelLevelMissing()
{
#if defined(FULLBAND_KERNEL_LEVEL_V4)
    const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                     __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
                     __builtin_cpu_supports("avx512vl");
    return has ? nullptr : "this CPU lacks AVX-512 (x86-64-v4): the kernel built for it cannot run here";
#elif defined(FULLBAND_KERNEL_LEVEL_V3)
    const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has ? nullptr : "this CPU lacks AVX2 and FMA (x86-64-v3): the kernel built for it cannot run here";
#else
    return nullptr;  // the build's own level
#endif
}
