#include "core/transformer/sentence_probe.h"

#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_batch.h"
#include "core/transformer/transformer_layers.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_workspace.h"

namespace fb {

std::string probeSentence(const TrainedTransformer &model, const std::string &sentence, TransformerSnapshot &out)
{
    if (!model.corpus) return "the sentence probe needs a model trained on the text task";
    const int T = model.config.seqLen;
    const std::size_t n = TextCorpus::countCharacters(sentence);
    if (n < 2 || n > std::size_t(T))
        return "the sentence must have 2 to " + std::to_string(T) + " characters (the trained length T), got "
               + std::to_string(n);
    const std::vector<int> ids = model.corpus->encode(sentence);
    const int length = int(ids.size());
    TransformerNet<float> net(model.shape);
    net.params = model.params;
    PositionTables<float> tables;
    tables.build(model.config.pos, model.shape.dModel, model.shape.heads, model.config.base, T);
    TransformerWorkspace<float> ws;
    ws.reserve(model.shape, length, length, false);
    TransformerBatch batch;
    batch.resize(1, length, false, model.shape.obsInputs > 0);
    std::copy(ids.begin(), ids.end(), batch.tokens.begin());
    const FeedbackMode mode = model.shape.feedback ? model.config.feedback : FeedbackMode::Off;
    net.forward(ws, batch, tables, mode, model.config.passes);

    TransformerSnapshot s;
    s.seqLen = length;
    s.layers = model.shape.layers;
    s.heads = model.shape.heads;
    s.probeTokens = ids;
    // Each head's block of att is (R, n), column i = query i, row j = key j (B = 1): transposed.
    const Eigen::Index R = nn::attentionRows(length);
    for (int l = 0; l < s.layers; ++l)
        for (int h = 0; h < s.heads; ++h) {
            const Eigen::Map<const Eigen::MatrixXf> block(ws.layer[std::size_t(l)].att.data() + Eigen::Index(h) * R * length, R,
                                                          length);
            s.attention.push_back(block.topRows(length).transpose());
        }
    out = std::move(s);
    return {};
}

} // namespace fb
