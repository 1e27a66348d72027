#pragma once
// The toy phase accumulator of Section 218.6.5 (000_031aadcae6604a46.txt), Figure 218.2 right:
//   z_t = (z_{t-1} + a_t) mod 1,  a_t ~ U[0,1),  z_{-1} := z0 ~ U[0,1)   (positions t = 0..T-1)
//   observation at t:      (cos 2 pi a_t, sin 2 pi a_t)
//   target at t:           y_t      = floor(V_b z_t)      (clamped to V_b - 1)
//   teacher-forced input:  y_{t-1}  = floor(V_b z_{t-1})  (z0's bucket at t = 0)
// The chapter's make_batch() draws the same quantities; the order of draws differs (it is fb::Rng,
// not torch.rand): per sequence, z0 first and then a_0 .. a_{T-1}. Sequences are therefore drawn one
// after the other, so the held-out set is the same whichever chunk size evaluates it.
#include "core/numeric/rng.h"

#include <Eigen/Core>

#include <vector>

namespace fb {

// One batch of B sequences of length T, stored time-major: column/index n = t*B + b.
struct ToyBatch {
    int batch = 0;            // B
    int seqLen = 0;           // T
    // (2, T*B): cos, sin of the increment a_t, in float (the models compute in float; the double
    // gradient checks only need some fixed input). Row-major so that each row is one vectorised
    // cos or sin over the batch.
    Eigen::Matrix<float, 2, Eigen::Dynamic, Eigen::RowMajor> obs;
    Eigen::ArrayXf increments;  // (T*B): a_t, scratch for the vectorised cos and sin
    std::vector<int> yPrev;   // (T*B): previous bucket, the teacher-forced input
    std::vector<int> y;       // (T*B): target bucket

    void resize(int b, int t);  // allocates; call outside any loop
    int columns() const { return batch * seqLen; }
};

// Fills out (already sized by resize) with out.batch fresh sequences drawn from rng. No allocation.
void makeToyBatch(Rng &rng, int buckets, ToyBatch &out);

// The bucket of a phase z in [0, 1): floor(V_b z), clamped to V_b - 1.
inline int toyBucket(double z, int buckets)
{
    const int b = int(z * buckets);
    return b < buckets - 1 ? b : buckets - 1;
}

} // namespace fb
