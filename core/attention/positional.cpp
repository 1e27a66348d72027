#include "core/attention/positional.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace fb {

namespace {
// Tables with fewer cos/sin evaluations than this (about 0.2 ms) stay on one thread.
constexpr int kSincosGrain = 8192;
} // namespace

Eigen::MatrixXd sinusoidalTable(int n, int d, double base)
{
    // table is (n, d): row pos, columns 2i (sin) and 2i+1 (cos) share the frequency b^(-2i/d).
    n = std::max(n, 0);
    d = std::max(d, 0);
    Eigen::MatrixXd table(n, d);
    const int pairs = (d + 1) / 2;
    // Parallel over column pairs once a pair's n sincos calls (~20 ns each) are worth a task.
    const int grain = std::max(1, kSincosGrain / std::max(n, 1));
    tbb::parallel_for(tbb::blocked_range<int>(0, pairs, grain), [&](const tbb::blocked_range<int> &r) {
        for (int i = r.begin(); i < r.end(); ++i) {
            const int c = 2 * i;
            const double w = std::pow(base, -double(c) / double(d));
            for (int pos = 0; pos < n; ++pos) {
                double s = 0.0, co = 1.0;
                ropeCosSin(double(pos), w, co, s);
                table(pos, c) = s;
                if (c + 1 < d) table(pos, c + 1) = co;
            }
        }
    });
    return table;
}

Eigen::VectorXd sinusoidalRow(double pos, int d, double base)
{
    // row is (d): PE(pos, 2i) = sin(pos w_i), PE(pos, 2i+1) = cos(pos w_i), w_i = b^(-2i/d).
    // An odd d keeps the last sine column and drops its cosine partner.
    Eigen::VectorXd row(std::max(d, 0));
    for (int c = 0; c < d; c += 2) {
        const double w = std::pow(base, -double(c) / double(d));
        double s = 0.0, co = 1.0;
        ropeCosSin(pos, w, co, s);
        row[c] = s;
        if (c + 1 < d) row[c + 1] = co;
    }
    return row;
}

Eigen::VectorXd ropeInvFreq(int d, double base)
{
    // invFreq is (d/2): theta_i = b^(-2i/d).
    const int half = std::max(d, 0) / 2;
    Eigen::VectorXd theta(half);
    for (int i = 0; i < half; ++i) theta[i] = std::pow(base, -2.0 * double(i) / double(d));
    return theta;
}

Eigen::MatrixXd ropeAngles(const Eigen::VectorXd &positions, const Eigen::VectorXd &invFreq)
{
    // angles is (positions, d/2): the outer product positions * invFreq^T, as in rope_angles.
    return positions * invFreq.transpose();
}

void ropeCosSin(double pos, double theta, double &c, double &s)
{
    // The product pos * theta rounds to hi; lo = pos * theta - hi exactly (one fma). Then
    // cos(hi + lo) = cos(hi) - sin(hi) lo and sin(hi + lo) = sin(hi) + cos(hi) lo, to within lo^2 / 2
    // (|lo| <= ulp(hi) / 2, so lo^2 is below 1e-20 for every angle FullBand forms).
    const double hi = pos * theta;
    const double lo = std::fma(pos, theta, -hi);
    double sh = 0.0, ch = 1.0;
    ::sincos(hi, &sh, &ch);
    c = ch - sh * lo;
    s = sh + ch * lo;
}

Eigen::VectorXd applyRope(const Eigen::VectorXd &x, double pos, const Eigen::VectorXd &invFreq)
{
    assert(x.size() == 2 * invFreq.size());
    // x and out are (d); pair i is (x[2i], x[2i+1]) rotated by pos * theta_i.
    Eigen::VectorXd out(x.size());
    for (Eigen::Index i = 0; i < invFreq.size(); ++i) {
        double c = 1.0, s = 0.0;
        ropeCosSin(pos, invFreq[i], c, s);
        const double e = x[2 * i], o = x[2 * i + 1];
        out[2 * i] = e * c - o * s;      // even' = e cos - o sin
        out[2 * i + 1] = e * s + o * c;  // odd'  = e sin + o cos
    }
    return out;
}

RopeTable ropeTable(int n, const Eigen::VectorXd &invFreq)
{
    n = std::max(n, 0);
    RopeTable t { Eigen::MatrixXd(n, invFreq.size()), Eigen::MatrixXd(n, invFreq.size()) };
    const int grain = std::max(1, kSincosGrain / std::max(n, 1));
    tbb::parallel_for(tbb::blocked_range<int>(0, int(invFreq.size()), grain), [&](const tbb::blocked_range<int> &r) {
        for (int i = r.begin(); i < r.end(); ++i)
            for (int pos = 0; pos < n; ++pos) ropeCosSin(double(pos), invFreq[i], t.cos(pos, i), t.sin(pos, i));
    });
    return t;
}

Eigen::MatrixXd applyRopeRows(const Eigen::MatrixXd &X, const RopeTable &table)
{
    assert(X.rows() == table.cos.rows() && X.cols() == 2 * table.cos.cols());
    // X and out are (n, d); column pair (2i, 2i+1) of every row rotated at once (vectorised over rows).
    Eigen::MatrixXd out(X.rows(), X.cols());
    for (Eigen::Index i = 0; i < table.cos.cols(); ++i) {
        const auto e = X.col(2 * i).array(), o = X.col(2 * i + 1).array();
        const auto c = table.cos.col(i).array(), s = table.sin.col(i).array();
        out.col(2 * i).array() = e * c - o * s;      // even' = e cos - o sin
        out.col(2 * i + 1).array() = e * s + o * c;  // odd'  = e sin + o cos
    }
    return out;
}

Eigen::MatrixXd applyRopeRows(const Eigen::MatrixXd &X, const Eigen::VectorXd &invFreq)
{
    return applyRopeRows(X, ropeTable(int(X.rows()), invFreq));
}

Eigen::Matrix2d rotation(double angle)
{
    const double c = std::cos(angle), s = std::sin(angle);
    Eigen::Matrix2d r;
    r << c, -s,
         s, c;
    return r;
}

} // namespace fb
