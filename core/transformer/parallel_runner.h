#pragma once
// How one training spreads its work over threads. The work of every loop is cut into the same fixed
// pieces whatever the thread count (column blocks of columnChunk(N), one (sequence, head) of attention,
// the row or column tiles of a weight gradient), and each piece writes its own outputs, so one thread and several
// give the same numbers bit for bit. With one thread the pieces run in order on the calling thread
// and oneTBB is not involved at all (no task, no allocation).
#include <Eigen/Core>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>

namespace fb {

class ParallelRunner {
public:
    // Columns per piece of the column-wise work (a layer's products, LayerNorm, RoPE) over (C, N)
    // activations: at most kColumnChunk, in an even number of pieces of equal width (multiples of
    // 16; N <= 16 is one piece), fixed by N alone. Every piece repeats a product's setup (the packed
    // transposed weight of a backward product): pieces of 128 made a text-size step 3% slower than
    // pieces of 384. An even count keeps two threads equally busy (768 columns: 2 x 384; 1024: 4 x 256).
    static constexpr Eigen::Index kColumnChunk = 384;
    static Eigen::Index columnChunk(Eigen::Index n)
    {
        const Eigen::Index pairs = std::max<Eigen::Index>(1, (n + 2 * kColumnChunk - 1) / (2 * kColumnChunk));
        const Eigen::Index half = (n + 2 * pairs - 1) / (2 * pairs);
        return std::max<Eigen::Index>(16, (half + 15) / 16 * 16);
    }

    explicit ParallelRunner(int threads = 1) : threads_(std::max(1, threads))
    {
        if (threads_ > 1) arena_ = std::make_unique<tbb::task_arena>(threads_);
    }

    int threads() const { return threads_; }

    // Calls f(i) for every i in [0, count). f must write disjoint outputs for different i.
    template <typename F>
    void forEach(Eigen::Index count, F &&f) const
    {
        if (threads_ == 1 || count <= 1) {
            for (Eigen::Index i = 0; i < count; ++i) f(i);
            return;
        }
        arena_->execute([&] {
            tbb::parallel_for(
                tbb::blocked_range<Eigen::Index>(0, count, 1),
                [&](const tbb::blocked_range<Eigen::Index> &r) {
                    for (Eigen::Index i = r.begin(); i < r.end(); ++i) f(i);
                },
                tbb::simple_partitioner());
        });
    }

    // Calls f(begin, length) for consecutive blocks of at most `chunk` of [0, count).
    template <typename F>
    void forBlocks(Eigen::Index count, Eigen::Index chunk, F &&f) const
    {
        const Eigen::Index pieces = (count + chunk - 1) / chunk;
        forEach(pieces, [&](Eigen::Index i) {
            const Eigen::Index begin = i * chunk;
            f(begin, std::min(chunk, count - begin));
        });
    }

    // Calls f(begin, length) for the column blocks of columnChunk(n) covering [c0, c0 + n).
    template <typename F>
    void forColumns(Eigen::Index c0, Eigen::Index n, F &&f) const
    {
        forBlocks(n, columnChunk(n), [&](Eigen::Index begin, Eigen::Index length) { f(c0 + begin, length); });
    }

private:
    int threads_;
    std::unique_ptr<tbb::task_arena> arena_;
};

} // namespace fb
