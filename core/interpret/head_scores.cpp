#include "core/interpret/head_scores.h"

namespace fb {

void HeadScores::addPreviousToken(const float *att, Eigen::Index R, Eigen::Index T, double &sum, long long &count)
{
    for (Eigen::Index i = 1; i < T; ++i) {
        sum += att[i * R + (i - 1)];
        ++count;
    }
}

void HeadScores::addSink(const float *att, Eigen::Index R, Eigen::Index T, double &sum, long long &count)
{
    for (Eigen::Index i = 1; i < T; ++i) {
        sum += att[i * R];  // att(key 0, query i)
        ++count;
    }
}

void HeadScores::addInduction(const float *att, Eigen::Index R, Eigen::Index T, int a, int s, double &sum,
                              long long &count)
{
    for (Eigen::Index i = a + s; i < a + 2 * s && i - s + 1 < T; ++i) {
        sum += att[i * R + (i - s + 1)];
        ++count;
    }
}

} // namespace fb
