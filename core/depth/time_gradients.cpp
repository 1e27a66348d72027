#include "core/depth/time_gradients.h"

#include "core/depth/depth_random.h"
#include "core/depth/lstm.h"
#include "core/depth/rnn_gradients.h"

#include <tbb/parallel_invoke.h>

#include <cmath>

namespace fb {

namespace {
double ratio(const std::vector<double> &v)
{
    return !v.empty() && v.back() > 0.0 ? v.front() / v.back() : 0.0;
}
} // namespace

TimeGradients timeGradients(const TimeGradientParams &p)
{
    // One input sequence for both models.
    const std::vector<Eigen::MatrixXd> x = randomSequence(p.input, p.seqLen, p.batch, streamSeed(p.seed, 100));
    TimeGradients r;
    RnnPass rnn;
    LstmStudy lstm;
    tbb::parallel_invoke(
        [&] {
            RnnParams rp;
            rp.hidden = p.hidden;
            rp.input = p.input;
            rp.seqLen = p.seqLen;
            rp.batch = p.batch;
            rp.radius = p.radius;
            rp.seed = streamSeed(p.seed, 101);
            rnn = rnnPass(makeRnn(rp), x, Eigen::MatrixXd::Zero(p.hidden, p.batch));
        },
        [&] {
            const LstmWeights w = makeStudyLstm(p.hidden, p.input, 1.0, p.forgetBias, streamSeed(p.seed, 102));
            lstm = lstmGradientNorms(w, x);
        });
    r.rnn = std::move(rnn.gradNorm);
    r.lstmCell = std::move(lstm.cellGradNorm);
    r.lstmHidden = std::move(lstm.hiddenGradNorm);
    r.lstmCarousel = std::move(lstm.carouselGradNorm);
    // logSlope is d log||g_k|| / dk; one step back in time is -1 in k.
    r.rnnRate = -logSlope(r.rnn);
    r.lstmCellRate = -logSlope(r.lstmCell);
    double logDeriv = 0.0;
    for (double d : rnn.derivRms) logDeriv += std::log(d);
    r.rnnPredictedRate = std::log(p.radius) + (rnn.derivRms.empty() ? 0.0 : logDeriv / double(rnn.derivRms.size()));
    r.rnnMeanDeriv = rnn.meanDeriv;
    r.rnnRatio = ratio(r.rnn);
    r.lstmCellRatio = ratio(r.lstmCell);
    r.lstmHiddenRatio = ratio(r.lstmHidden);
    r.lstmCarouselRatio = !r.lstmCell.empty() && r.lstmCell.back() > 0.0 ? r.lstmCarousel.front() / r.lstmCell.back() : 0.0;
    r.meanForget = lstm.meanForget;
    return r;
}

} // namespace fb
