// FullBand's float32 draws against PyTorch 1.13 (Debian's python3-torch): torch.randn, tensor.uniform_
// and the default nn.Linear / nn.Conv2d initialisation, bit for bit, for the AVX2 kernel (what Debian's
// build runs on AVX2 and AVX-512 CPUs) and the default kernel (ATEN_CPU_CAPABILITY=default). The
// constants (first and last value as hex floats, an FNV-1a hash of the bits of every value drawn) are
// what `tests/core/torch/dump_torch_draws.py --constants` prints. Torch is not needed here; with
// FULLBAND_TORCH_DRAWS=DIR (DIR written by `dump_torch_draws.py DIR`) the test also compares every
// dumped draw, 17.6 million values.
#include "core/torch/torch_avx_math.h"
#include "core/torch/torch_generator.h"
#include "core/torch/torch_init.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace fb;

Q_DECLARE_METATYPE(fb::TorchCpuKernel)

namespace {

std::uint32_t bitsOf(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// FNV-1a (64 bit) over the float32 bit patterns, as the recording script hashes them.
quint64 fnv(const std::vector<float> &v)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (float x : v) {
        h ^= bitsOf(x);
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::vector<float> concat(std::vector<float> a, const std::vector<float> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

constexpr auto Avx2 = TorchCpuKernel::Avx2;
constexpr auto Default = TorchCpuKernel::Default;

} // namespace

class TestTorchFloatDraws : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // torch.manual_seed(seed); a = torch.randn(n); b = torch.randn(n).
    void randnMatchesTorch_data()
    {
        QTest::addColumn<TorchCpuKernel>("kernel");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("n");
        QTest::addColumn<float>("firstOfA");
        QTest::addColumn<float>("lastOfA");
        QTest::addColumn<float>("lastOfB");
        QTest::addColumn<quint64>("hash");
        // n < 16: float(the double normal), the same for both kernels.
        QTest::newRow("avx2 5") << Avx2 << 0 << 5 << 0x1.8a7eb8p+0f << -0x1.15a342p+0f << -0x1.9d0616p-2f << Q_UINT64_C(0x7bff5676ac9ce120);
        QTest::newRow("default 5") << Default << 0 << 5 << 0x1.8a7eb8p+0f << -0x1.15a342p+0f << -0x1.9d0616p-2f << Q_UINT64_C(0x7bff5676ac9ce120);
        // n >= 16: blocks of 16, the tail block redrawn (20, 100, 4097).
        QTest::newRow("avx2 16") << Avx2 << 0 << 16 << -0x1.20370ap+0f << -0x1.fa6cf8p-3f << -0x1.aff666p-1f << Q_UINT64_C(0xf3369ace66ecf2c2);
        QTest::newRow("avx2 20") << Avx2 << 0 << 20 << -0x1.20370ap+0f << 0x1.b83674p-5f << 0x1.534536p+0f << Q_UINT64_C(0xd6703f688614cf6e);
        QTest::newRow("avx2 100") << Avx2 << 42 << 100 << 0x1.ed4a52p+0f << 0x1.3c0c38p-1f << -0x1.72b494p-1f << Q_UINT64_C(0x749443decd665e12);
        QTest::newRow("avx2 4097") << Avx2 << 7 << 4097 << -0x1.a3e8acp-1f << -0x1.883606p-1f << -0x1.3fc47ap-1f << Q_UINT64_C(0x7496359f808dbeab);
        QTest::newRow("avx2 2048") << Avx2 << 3 << 2048 << -0x1.39ef5ep-4f << 0x1.19c21p-3f << 0x1.ac6008p-1f << Q_UINT64_C(0x00465d2a20cee8c7);
        QTest::newRow("default 16") << Default << 0 << 16 << -0x1.20370ap+0f << -0x1.fa6cb4p-3f << -0x1.aff668p-1f << Q_UINT64_C(0xf22a3ef0747a548a);
        QTest::newRow("default 20") << Default << 0 << 20 << -0x1.20370ap+0f << 0x1.b83672p-5f << 0x1.534536p+0f << Q_UINT64_C(0x4ae5820585230b39);
        QTest::newRow("default 100") << Default << 42 << 100 << 0x1.ed4a4ep+0f << 0x1.3c0c38p-1f << -0x1.72b48ep-1f << Q_UINT64_C(0xd98acd6dce45100a);
        QTest::newRow("default 4097") << Default << 7 << 4097 << -0x1.a3e8acp-1f << -0x1.883606p-1f << -0x1.3fc496p-1f << Q_UINT64_C(0x3a67ba75d19b2d4f);
        QTest::newRow("default 2048") << Default << 3 << 2048 << -0x1.39ef62p-4f << 0x1.19c21ap-3f << 0x1.ac6004p-1f << Q_UINT64_C(0x83ae5a86d1b6c3bb);
    }
    void randnMatchesTorch()
    {
        QFETCH(TorchCpuKernel, kernel);
        QFETCH(int, seed);
        QFETCH(int, n);
        QFETCH(float, firstOfA);
        QFETCH(float, lastOfA);
        QFETCH(float, lastOfB);
        QFETCH(quint64, hash);
        TorchGenerator g(std::uint64_t(seed), kernel);
        const std::vector<float> a = g.randnFloat(n);
        const std::vector<float> b = g.randnFloat(n);
        QCOMPARE(bitsOf(a.front()), bitsOf(firstOfA));
        QCOMPARE(bitsOf(a.back()), bitsOf(lastOfA));
        QCOMPARE(bitsOf(b.back()), bitsOf(lastOfB));
        QCOMPARE(fnv(concat(a, b)), hash);
    }

    // torch.manual_seed(seed); torch.empty(n).uniform_(from, to).
    void uniformMatchesTorch_data()
    {
        QTest::addColumn<TorchCpuKernel>("kernel");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<float>("first");
        QTest::addColumn<float>("last");
        QTest::addColumn<quint64>("hash");
        const double b144 = kaimingUniformBound(144);
        QTest::newRow("avx2 conv bound") << Avx2 << 0 << 2304 << -b144 << b144 << -0x1.471aacp-11f << 0x1.a023cp-5f << Q_UINT64_C(0x3e91018d0ea02a5c);
        QTest::newRow("avx2 0.3") << Avx2 << 1 << 1000 << -0.3 << 0.3 << 0x1.3c93e6p-3f << 0x1.0c9b58p-3f << Q_UINT64_C(0xb3724ef16ebe3e05);
        QTest::newRow("avx2 2..5") << Avx2 << 5 << 33 << 2.0 << 5.0 << 0x1.1f688ap+2f << 0x1.10f5bcp+1f << Q_UINT64_C(0x70a97ad6f2aeced8);
        QTest::newRow("default conv bound") << Default << 0 << 2304 << -b144 << b144 << -0x1.471bp-11f << 0x1.a023c4p-5f << Q_UINT64_C(0xddff690861c4f126);
        QTest::newRow("default 0.3") << Default << 1 << 1000 << -0.3 << 0.3 << 0x1.3c93e4p-3f << 0x1.0c9b58p-3f << Q_UINT64_C(0x21936ba9eca523e5);
        QTest::newRow("default 2..5") << Default << 5 << 33 << 2.0 << 5.0 << 0x1.1f688ap+2f << 0x1.10f5bcp+1f << Q_UINT64_C(0x9d6e432e2def2658);
    }
    void uniformMatchesTorch()
    {
        QFETCH(TorchCpuKernel, kernel);
        QFETCH(int, seed);
        QFETCH(int, n);
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(float, first);
        QFETCH(float, last);
        QFETCH(quint64, hash);
        TorchGenerator g(std::uint64_t(seed), kernel);
        const std::vector<float> v = g.uniformFloat(n, from, to);
        QCOMPARE(bitsOf(v.front()), bitsOf(first));
        QCOMPARE(bitsOf(v.back()), bitsOf(last));
        QCOMPARE(fnv(v), hash);
    }

    // torch.manual_seed(0); nn.Linear(64, 32) and nn.Conv2d(16, 16, 3, padding=1, bias=False).
    void defaultInitMatchesTorch()
    {
        QCOMPARE(kaimingUniformBound(144), 0.08333333333333331);  // not 1/12 = 0.08333333333333333
        TorchGenerator g(0);
        const TorchLinearInit lin = torchLinearInit(g, 64, 32);
        QCOMPARE(int(lin.weight.size()), 64 * 32);
        QCOMPARE(int(lin.bias.size()), 32);
        QCOMPARE(bitsOf(lin.weight.front()), bitsOf(-0x1.eaa8p-11f));
        QCOMPARE(bitsOf(lin.weight.back()), bitsOf(-0x1.ac343p-5f));
        QCOMPARE(bitsOf(lin.bias.front()), bitsOf(-0x1.0b92ap-4f));
        QCOMPARE(bitsOf(lin.bias.back()), bitsOf(-0x1.dabffp-5f));
        QCOMPARE(fnv(concat(lin.weight, lin.bias)), Q_UINT64_C(0xa3826a4cd3200af7));
        TorchGenerator h(0);
        QCOMPARE(fnv(torchConv2dWeight(h, 16, 16, 3)), Q_UINT64_C(0x3e91018d0ea02a5c));
    }

    // The eight-lane AVX2 path (in AVX2 builds) gives the bits of the one-lane functions, on a
    // sample of every uniform the kernel can see (each 7th of the 2^24).
    void vectorPathEqualsScalarPath()
    {
        const float twoPi = float(2.0 * M_PI);
        int mismatches = 0;
        for (std::uint32_t k = 0; k < (1u << 24); k += 7 * 8) {
            float block[16];
            for (int j = 0; j < 8; ++j) {
                block[j] = float((k + 7 * j) % (1u << 24)) * 0x1.0p-24f;
                block[j + 8] = float((k + 7 * j + 3) % (1u << 24)) * 0x1.0p-24f;
            }
            float expect[16];
            for (int j = 0; j < 8; ++j) {
                const float radius = std::sqrt(-2.0f * torchAvxLog(1.0f - block[j]));
                float s, c;
                torchAvxSinCos(twoPi * block[j + 8], s, c);
                expect[j] = radius * c;
                expect[j + 8] = radius * s;
            }
            torchAvxNormalFill16(block);
            for (int j = 0; j < 16; ++j) mismatches += bitsOf(block[j]) != bitsOf(expect[j]);
        }
        QCOMPARE(mismatches, 0);
    }

    void smallDrawsKeepTheCachedNormal()
    {
        // The n < 16 path shares the double generator's cached sine half with randn(dtype=float64).
        TorchGenerator a(0), b(0);
        const std::vector<float> f = a.randnFloat(3);
        const std::vector<double> d = b.randn(3);
        for (int i = 0; i < 3; ++i) QCOMPARE(bitsOf(f[std::size_t(i)]), bitsOf(float(d[std::size_t(i)])));
        QCOMPARE(bitsOf(a.randnFloat(1).front()), bitsOf(float(b.randn(1).front())));
    }

    // Opt-in: every draw dumped by tests/core/torch/dump_torch_draws.py (run with Debian's PyTorch).
    void dumpedDrawsMatchTorch()
    {
        const char *dir = std::getenv("FULLBAND_TORCH_DRAWS");
        if (!dir) QSKIP("FULLBAND_TORCH_DRAWS is not set (see tests/core/torch/dump_torch_draws.py)");
        std::ifstream manifest(std::string(dir) + "/manifest.txt");
        QVERIFY2(manifest, "no manifest.txt in FULLBAND_TORCH_DRAWS");
        std::string kernelName;
        std::getline(manifest, kernelName);
        const TorchCpuKernel kernel = kernelName == "kernel default" ? Default : Avx2;
        long long values = 0, differ = 0;
        int cases = 0;
        std::string line;
        while (std::getline(manifest, line)) {
            std::istringstream in(line);
            std::string kind, file;
            std::uint64_t seed = 0;
            int n = 0;
            double from = 0, to = 0;
            in >> kind >> seed >> n >> from >> to >> file;
            std::ifstream data(std::string(dir) + "/" + file, std::ios::binary | std::ios::ate);
            std::vector<float> expect(std::size_t(data.tellg()) / 4);
            data.seekg(0);
            data.read(reinterpret_cast<char *>(expect.data()), std::streamsize(expect.size() * 4));
            TorchGenerator g(seed, kernel);
            std::vector<float> got;
            auto take = [&got](const std::vector<float> &v) { got.insert(got.end(), v.begin(), v.end()); };
            if (kind == "randn") {
                take(g.randnFloat(n));
                if (expect.size() == 2 * std::size_t(n)) take(g.randnFloat(n));
            } else if (kind == "uniform") {
                take(g.uniformFloat(n, from, to));
                take(g.uniformFloat(n, from, to));
            } else {  // "mixed": randn(3), randn(40), randn(1), uniform_(-1, 1) on 7, randn(2)
                take(g.randnFloat(3));
                take(g.randnFloat(40));
                take(g.randnFloat(1));
                take(g.uniformFloat(7, -1.0, 1.0));
                take(g.randnFloat(2));
            }
            QVERIFY2(got.size() == expect.size(), line.c_str());
            for (std::size_t i = 0; i < got.size(); ++i) differ += bitsOf(got[i]) != bitsOf(expect[i]);
            values += got.size();
            ++cases;
        }
        qInfo("%d cases, %lld values, %lld differ", cases, values, differ);
        QVERIFY(cases > 0);
        QCOMPARE(differ, 0LL);
    }
};

QTEST_APPLESS_MAIN(TestTorchFloatDraws)
#include "tst_torch_float_draws.moc"
