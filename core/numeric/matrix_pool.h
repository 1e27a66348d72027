#pragma once
// Memory for the matrices of a live lab's results, reused from one result to the next. A result's
// matrices go to the GUI thread, which drops them when the next result arrives; the computation
// takes them back once nobody else holds them. At n = 512 with 8 heads a result holds 16 MB, and
// fresh memory costs a page fault every 4 KB: more than the attention itself.
#include <Eigen/Core>

#include <memory>
#include <mutex>
#include <vector>

namespace fb {

class MatrixPool {
public:
    using Matrices = std::vector<Eigen::MatrixXd>;

    // A set of matrices no result uses any more (with its memory), else a new empty one. The set
    // is remembered, to be taken back once every other holder has let go of it.
    std::shared_ptr<Matrices> take();

private:
    std::mutex mutex_;
    std::vector<std::shared_ptr<Matrices>> sets_;
};

} // namespace fb
