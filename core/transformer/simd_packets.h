#pragma once
// The SIMD packets the hand-vectorised passes read a column in (attention_softmax.h, layer_norm.h),
// through Eigen's packet primitives: the build's widest (16 floats with AVX-512) and the widest of at
// most 8 scalars, and how many scalars a packet holds.
#include <Eigen/Core>

namespace fb::nn::simd {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"  // the packet type is __m512 (or __m256d, __m128)

template <typename S>
using Wide = typename Eigen::internal::packet_traits<S>::type;
template <typename S>
using Narrow = typename Eigen::internal::find_best_packet<S, 8>::type;
template <typename P>
constexpr Eigen::Index lanes = Eigen::internal::unpacket_traits<P>::size;

#pragma GCC diagnostic pop

} // namespace fb::nn::simd
