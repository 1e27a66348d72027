#pragma once
// What one attention head does, read off its weights (Olsson et al. 2022, "In-context learning and
// induction heads"): the induction score, the mean attention of each query i in the repeat on key
// i - s + 1 (the token after the earlier copy of the current one), and the previous-token score, the
// mean attention of query i on key i - 1. An induction head reads from a previous-token head of an
// earlier layer: the two scores side by side show the circuit.
//
// att is one (sequence, head) block as the workspace keeps it (core/transformer/transformer_workspace.h):
// column i = query i, row j = key j, the columns R >= T rows apart, so att(key j, query i) = att[i*R + j].
// The functions add sums and counts, so that callers average over heads, sequences and batches.
#include <Eigen/Core>

namespace fb {

class HeadScores {
public:
    // Previous-token: sum += att(i - 1, i) for the queries i = 1 .. T - 1, count += T - 1.
    static void addPreviousToken(const float *att, Eigen::Index R, Eigen::Index T, double &sum, long long &count);
    // The attention sink (004_21534ea083b6ce9c.txt, "Recent Developments"; Qiu et al. 2025): the weight
    // the queries after the first put on position 0, sum += att(0, i) for i = 1 .. T - 1, count += T - 1.
    static void addSink(const float *att, Eigen::Index R, Eigen::Index T, double &sum, long long &count);
    // Induction, for a sequence whose tokens [a, a + s) repeat at [a + s, a + 2s): sum += att(i - s + 1, i)
    // for the queries i in [a + s, a + 2s) with i - s + 1 < T, count += their number.
    static void addInduction(const float *att, Eigen::Index R, Eigen::Index T, int a, int s, double &sum,
                             long long &count);
};

} // namespace fb
