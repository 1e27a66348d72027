// The float attention kernel (core/transformer/attention_kernel.h) against attention written out here
// in double: one (sequence, head) inside a (3d, B T) buffer of two sequences and two heads, as the stack
// calls it, at every head width it takes (multiples of the build's vector up to 64) and sequences that
// leave every kind of remainder (one key, fewer than a packet, a packet and one more, rows of weights
// padded past the last packet). Tolerance: 2e-5 absolute on values of order one (float's rounding over
// at most 128 keys is near 1e-6). Also: masked and padded weights are exactly zero, nothing outside the
// head's views changes, one position at a time against the cache gives the whole sequence's numbers bit
// for bit, and the backward writes or adds as asked. tests/CMakeLists.txt builds it again with the
// kernel compiled for x86-64-v3 and x86-64-v4, each skipped where the CPU lacks the level.
#include "core/transformer/attention_kernel.h"

#include "support/kernel_level.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace fb;

namespace {

constexpr long B = 2, H = 2, b = 1, h = 1;  // the head under test: the second sequence's second head
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

long rowsOf(long T) { return (T + 7) / 8 * 8; }

// The buffers of one layer as the stack lays them out (time-major columns t B + s), and the views of
// head (b, h): q, k, v in qkv (3d rows), y in atty (d rows), its weights at (b H + h) rows T in att
struct Layer {
    long dh, T, d, ld;
    std::vector<float> qkv, atty, att, dqkv, dy;
    Layer(long dh_, long T_, std::mt19937 &gen) : dh(dh_), T(T_), d(H * dh_), ld(rowsOf(T_))
    {
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        qkv.resize(size_t(3 * d * B * T));
        dy.resize(size_t(d * B * T));
        for (float &x : qkv) x = u(gen);
        for (float &x : dy) x = u(gen);
        atty.assign(size_t(d * B * T), kNaN);  // every output the kernel writes is overwritten
        att.assign(size_t(ld * T * B * H), kNaN);
        dqkv.assign(qkv.size(), kNaN);
    }
    long qs() const { return B * 3 * d; }
    const float *q(long t) const { return qkv.data() + (t * B + b) * 3 * d + h * dh; }
    const float *k(long t) const { return q(t) + d; }
    const float *v(long t) const { return q(t) + 2 * d; }
    float *y(long t) { return atty.data() + (t * B + b) * d + h * dh; }
    const float *dyAt(long t) const { return dy.data() + (t * B + b) * d + h * dh; }
    float *weights() { return att.data() + (b * H + h) * ld * T; }
    float *dq(long t) { return dqkv.data() + (t * B + b) * 3 * d + h * dh; }
    float *dk(long t) { return dq(t) + d; }
    float *dv(long t) { return dq(t) + 2 * d; }
    nn::AttentionHead head(long p0, long nq) const
    {
        return { q(p0), k(0), v(0), qs(), qs(), qs(), dh, p0, nq, float(1.0 / std::sqrt(double(dh))) };
    }
};

// Attention in double: the weights w(j, i) of every query i over the keys j <= i, y, and the gradients
// from dy
struct Reference {
    long dh, T;
    std::vector<double> w, y, dq, dk, dv;
    explicit Reference(const Layer &x) : dh(x.dh), T(x.T)
    {
        const double scale = 1.0 / std::sqrt(double(dh));
        w.assign(size_t(T * T), 0.0);
        y.assign(size_t(dh * T), 0.0);
        dq.assign(size_t(dh * T), 0.0);
        dk.assign(size_t(dh * T), 0.0);
        dv.assign(size_t(dh * T), 0.0);
        for (long i = 0; i < T; ++i) {
            double top = -1e300, sum = 0.0;
            std::vector<double> s(size_t(i + 1));
            for (long j = 0; j <= i; ++j) {
                double dot = 0.0;
                for (long f = 0; f < dh; ++f) dot += double(x.k(j)[f]) * double(x.q(i)[f]);
                s[size_t(j)] = dot * scale;
                top = std::max(top, s[size_t(j)]);
            }
            for (long j = 0; j <= i; ++j) sum += std::exp(s[size_t(j)] - top);
            for (long j = 0; j <= i; ++j) w[size_t(j + i * T)] = std::exp(s[size_t(j)] - top) / sum;
            for (long f = 0; f < dh; ++f)
                for (long j = 0; j <= i; ++j) y[size_t(f + i * dh)] += w[size_t(j + i * T)] * double(x.v(j)[f]);
            // backward: da_j = v_j . dy_i; ds_j = scale w_j (da_j - sum w da); dq_i = sum ds_j k_j;
            // dk_j += ds_j q_i; dv_j += w_j dy_i
            std::vector<double> da(size_t(i + 1));
            double wda = 0.0;
            for (long j = 0; j <= i; ++j) {
                for (long f = 0; f < dh; ++f) da[size_t(j)] += double(x.v(j)[f]) * double(x.dyAt(i)[f]);
                wda += w[size_t(j + i * T)] * da[size_t(j)];
            }
            for (long j = 0; j <= i; ++j) {
                const double ds = scale * w[size_t(j + i * T)] * (da[size_t(j)] - wda);
                for (long f = 0; f < dh; ++f) {
                    dq[size_t(f + i * dh)] += ds * double(x.k(j)[f]);
                    dk[size_t(f + j * dh)] += ds * double(x.q(i)[f]);
                    dv[size_t(f + j * dh)] += w[size_t(j + i * T)] * double(x.dyAt(i)[f]);
                }
            }
        }
    }
};

constexpr double kTol = 2e-5;

// worst = the larger of worst and err, NaN the largest of all (std::max would keep worst)
void worsen(double &worst, double err)
{
    if (!std::isnan(worst) && !(err <= worst)) worst = err;
}

// the widths the kernel takes at T keys, of 4, 8, 12, 16, 24, 32, 48, 64
std::vector<long> widths(long T)
{
    std::vector<long> out;
    for (long dh : { 4L, 8L, 12L, 16L, 24L, 32L, 48L, 64L })
        if (nn::attention_kernel_fits(dh, T)) out.push_back(dh);
    return out;
}

} // namespace

class TestAttentionKernel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (const char *why = kernelLevelMissing()) QSKIP(why);
    }

    // Which heads the kernel takes: one to four vectors of features, 1 to 128 keys
    void fits()
    {
        QVERIFY(nn::attention_kernel_fits(16, 128));
        QVERIFY(nn::attention_kernel_fits(16, 1));
        QVERIFY(!nn::attention_kernel_fits(16, 129));
        QVERIFY(!nn::attention_kernel_fits(72, 32));
        QVERIFY(!nn::attention_kernel_fits(6, 32));  // not a whole vector in any build
        QVERIFY(!nn::attention_kernel_fits(0, 32));
        QVERIFY(!nn::attention_kernel_fits(16, 0));
#if defined(FULLBAND_KERNEL_LEVEL_V4)
        QVERIFY(nn::attention_kernel_fits(64, 128));
        QVERIFY(!nn::attention_kernel_fits(8, 32));
#elif defined(FULLBAND_KERNEL_LEVEL_V3)
        QVERIFY(nn::attention_kernel_fits(32, 128));
        QVERIFY(!nn::attention_kernel_fits(48, 32));  // six vectors
#endif
        QVERIFY(!widths(64).empty());
    }

    void againstDouble_data()
    {
        QTest::addColumn<long>("T");
        for (long T : { 1L, 3L, 16L, 17L, 31L, 32L, 33L, 40L, 64L, 100L, 128L })
            QTest::addRow("T %ld", T) << T;
    }

    void againstDouble()
    {
        QFETCH(long, T);
        for (const long dh : widths(T)) {
            std::mt19937 gen(unsigned(dh * 1000 + T));
            Layer x(dh, T, gen);
            const Reference ref(x);
            nn::attention_kernel_forward(x.head(0, T), x.y(0), B * x.d, x.weights(), x.ld);
            const QString where = QString("dh %1, T %2").arg(dh).arg(T);
            double worstY = 0.0, worstW = 0.0;
            for (long i = 0; i < T; ++i) {
                for (long f = 0; f < dh; ++f) worsen(worstY, std::abs(x.y(i)[f] - ref.y[size_t(f + i * dh)]));
                const float *column = x.weights() + i * x.ld;
                for (long j = 0; j <= i; ++j) worsen(worstW, std::abs(column[j] - ref.w[size_t(j + i * T)]));
                for (long j = i + 1; j < x.ld; ++j)
                    QVERIFY2(column[j] == 0.0f, qPrintable(where + ": masked and padded weights are exactly zero"));
            }
            QVERIFY2(worstY <= kTol && worstW <= kTol,
                     qPrintable(where + QString(": y off by %1, weights by %2").arg(worstY).arg(worstW)));
            // nothing outside the head's views: the other heads' outputs and weights keep their NaN
            for (size_t i = 0; i < x.atty.size(); ++i) {
                const long row = long(i) % x.d, col = long(i) / x.d;
                if (col % B != b || row / dh != h) QVERIFY2(std::isnan(x.atty[i]), qPrintable(where + ": y's neighbours"));
            }
            for (size_t i = 0; i < x.att.size(); ++i)
                if (long(i) / (x.ld * T) != b * H + h) QVERIFY2(std::isnan(x.att[i]), qPrintable(where + ": att's neighbours"));

            // one position at a time against the cache (the keys and values before it): bit for bit
            const std::vector<float> whole = x.atty, wholeAtt = x.att;
            for (long t = 0; t < T; ++t) nn::attention_kernel_forward(x.head(t, 1), x.y(t), B * x.d, x.weights(), x.ld);
            const auto same = [](float p, float q) { return p == q || (std::isnan(p) && std::isnan(q)); };
            QVERIFY2(std::equal(whole.begin(), whole.end(), x.atty.begin(), same),
                     qPrintable(where + ": decoding with the cache"));
            QVERIFY2(std::equal(wholeAtt.begin(), wholeAtt.end(), x.att.begin(), same),
                     qPrintable(where + ": the cache's weights"));
            // and in two ranges, the second's queries after the first's positions: bit for bit too
            if (T > 7) {
                nn::attention_kernel_forward(x.head(0, 7), x.y(0), B * x.d, x.weights(), x.ld);
                nn::attention_kernel_forward(x.head(7, T - 7), x.y(7), B * x.d, x.weights(), x.ld);
                QVERIFY2(std::equal(whole.begin(), whole.end(), x.atty.begin(), same) &&
                             std::equal(wholeAtt.begin(), wholeAtt.end(), x.att.begin(), same),
                         qPrintable(where + ": in two ranges"));
            }

            // the backward: writing all (over NaN); adding all (onto the values written: twice the
            // gradient); writing dq and adding to dk and dv (a grouped-query head after its group's first:
            // dq over NaN, dk and dv three times)
            struct Mode {
                bool writeQ, writeKV;
                double q, kv;  // the multiple of the gradient expected afterwards
            };
            for (const Mode mode : { Mode { true, true, 1, 1 }, Mode { false, false, 2, 2 }, Mode { true, false, 1, 3 } }) {
                if (mode.writeQ)
                    for (long i = 0; i < T; ++i) std::fill(x.dq(i), x.dq(i) + dh, kNaN);
                nn::attention_kernel_backward(x.head(0, T), x.dyAt(0), B * x.d, x.weights(), x.ld, x.dq(0), x.qs(),
                                              x.dk(0), x.qs(), x.dv(0), x.qs(), mode.writeQ, mode.writeKV);
                double worst = 0.0;
                for (long i = 0; i < T; ++i)
                    for (long f = 0; f < dh; ++f) {
                        worsen(worst, std::abs(x.dq(i)[f] - mode.q * ref.dq[size_t(f + i * dh)]));
                        worsen(worst, std::abs(x.dk(i)[f] - mode.kv * ref.dk[size_t(f + i * dh)]));
                        worsen(worst, std::abs(x.dv(i)[f] - mode.kv * ref.dv[size_t(f + i * dh)]));
                    }
                QVERIFY2(worst <= mode.kv * kTol,
                         qPrintable(where + QString(": gradients off by %1 (write q %2, k and v %3)")
                                                .arg(worst)
                                                .arg(mode.writeQ)
                                                .arg(mode.writeKV)));
            }
            for (size_t i = 0; i < x.dqkv.size(); ++i) {
                const long row = long(i) % (3 * x.d), col = long(i) / (3 * x.d);
                if (col % B != b || (row % x.d) / dh != h)
                    QVERIFY2(std::isnan(x.dqkv[i]), qPrintable(where + ": dq, dk and dv's neighbours"));
            }

            // the backward one position at a time (backpropagation through time), adding to zeros
            std::fill(x.dqkv.begin(), x.dqkv.end(), 0.0f);
            for (long t = T - 1; t >= 0; --t)
                nn::attention_kernel_backward(x.head(t, 1), x.dyAt(t), B * x.d, x.weights(), x.ld, x.dq(t), x.qs(),
                                              x.dk(0), x.qs(), x.dv(0), x.qs(), false, false);
            double worst = 0.0;
            for (long i = 0; i < T; ++i)
                for (long f = 0; f < dh; ++f) {
                    worsen(worst, std::abs(x.dq(i)[f] - ref.dq[size_t(f + i * dh)]));
                    worsen(worst, std::abs(x.dk(i)[f] - ref.dk[size_t(f + i * dh)]));
                    worsen(worst, std::abs(x.dv(i)[f] - ref.dv[size_t(f + i * dh)]));
                }
            QVERIFY2(worst <= kTol, qPrintable(where + QString(": position by position, off by %1").arg(worst)));
        }
    }
};

QTEST_APPLESS_MAIN(TestAttentionKernel)
#include "tst_attention_kernel.moc"
