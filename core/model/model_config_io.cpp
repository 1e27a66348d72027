#include "core/model/model_config_io.h"

#include "core/model/byte_reader.h"
#include "core/model/byte_writer.h"
#include "core/transformer/transformer_config.h"

#include <climits>
#include <cmath>

namespace fb {

void writeModelConfig(ByteWriter &w, const TransformerConfig &c)
{
    w.u32(std::uint32_t(c.task)).i32(c.vocab).i32(c.buckets).i32(c.seqLen).i32(c.batch).i32(c.layers).i32(c.heads);
    w.i32(c.dModel).u32(std::uint32_t(c.pos)).f64(c.base).u8(c.embedScale).u32(std::uint32_t(c.scaling)).f64(c.factor);
    w.u32(std::uint32_t(c.feedback)).i32(c.passes).f64(c.lr).f64(c.weightDecay).i32(c.steps).u64(c.seed).f64(c.clip);
    w.f64(c.divergeLoss).i32(c.threads).i32(c.evalEvery).i32(c.evalSequences).i32(c.probeEvery).f64(c.probeSeconds);
    w.i32(c.sampleChars).f64(c.sampleTemperature);
    // version 2: the model options of "Recent Developments"
    w.i32(c.window).i32(c.kvHeads).u8(c.rmsNorm).u8(c.qkNorm).u8(c.attnGate).i32(c.loop);
    // version 3: the keys of the tasks with exact answers
    w.i32(c.items).i32(c.pairs).i32(c.modulus).f64(c.trainFraction);
    // version 5: the mixer of every layer
    w.string(c.mixer);
    // version 6: mqar's fewest pairs
    w.i32(c.pairsMin);
    // version 7: the short convolution's taps
    w.i32(c.shortConv);
}

bool readModelConfig(ByteReader &r, TransformerConfig &c, std::uint32_t version)
{
    enumeration(r, c.task, "task", version >= 3 ? 9 : 3);  // version 3 adds the tasks with exact answers
    r.integer(c.vocab, "vocab", INT_MIN, INT_MAX);
    r.integer(c.buckets, "buckets", INT_MIN, INT_MAX);
    r.integer(c.seqLen, "seq_len", INT_MIN, INT_MAX);
    r.integer(c.batch, "batch", INT_MIN, INT_MAX);
    r.integer(c.layers, "layers", INT_MIN, INT_MAX);
    r.integer(c.heads, "heads", INT_MIN, INT_MAX);
    r.integer(c.dModel, "d_model", INT_MIN, INT_MAX);
    enumeration(r, c.pos, "pos", version >= 2 ? 3 : 2);  // version 2 adds alibi
    r.f64(c.base, "base");
    r.flag(c.embedScale, "embed_scale");
    enumeration(r, c.scaling, "scaling", 3);
    r.f64(c.factor, "factor");
    enumeration(r, c.feedback, "feedback", 2);
    r.integer(c.passes, "passes", INT_MIN, INT_MAX);
    r.f64(c.lr, "lr");
    r.f64(c.weightDecay, "weight_decay");
    r.integer(c.steps, "steps", INT_MIN, INT_MAX);
    r.u64(c.seed, "seed");
    r.f64(c.clip, "clip");
    r.f64(c.divergeLoss, "divergeLoss");
    r.integer(c.threads, "threads", INT_MIN, INT_MAX);
    r.integer(c.evalEvery, "eval_every", INT_MIN, INT_MAX);
    r.integer(c.evalSequences, "evalSequences", INT_MIN, INT_MAX);
    r.integer(c.probeEvery, "probeEvery", INT_MIN, INT_MAX);
    r.f64(c.probeSeconds, "probeSeconds");
    r.integer(c.sampleChars, "sampleChars", INT_MIN, INT_MAX);
    r.f64(c.sampleTemperature, "sampleTemperature");
    if (version >= 2) {
        // the model options; a version-1 file keeps their defaults (all off), the model it was
        r.integer(c.window, "window", INT_MIN, INT_MAX);
        r.integer(c.kvHeads, "kv_heads", INT_MIN, INT_MAX);
        r.flag(c.rmsNorm, "norm");
        r.flag(c.qkNorm, "qk_norm");
        r.flag(c.attnGate, "attn_gate");
        r.integer(c.loop, "loop", INT_MIN, INT_MAX);
    }
    if (version >= 3) {
        r.integer(c.items, "items", INT_MIN, INT_MAX);
        r.integer(c.pairs, "pairs", INT_MIN, INT_MAX);
        r.integer(c.modulus, "p", INT_MIN, INT_MAX);
        r.f64(c.trainFraction, "train_fraction");
    }
    if (version >= 5) r.string(c.mixer, "mixer", 400);  // earlier files: softmax attention everywhere
    if (version >= 6) r.integer(c.pairsMin, "pairs_min", INT_MIN, INT_MAX);  // earlier files: always pairs
    if (version >= 7) r.integer(c.shortConv, "short_conv", INT_MIN, INT_MAX);  // earlier files: off
    if (!r.ok()) return false;
    // The same checks as a training's (ranges, divisibility, the 2 GiB budget), the text aside.
    if (std::string err = checkTransformerSettings(c); !err.empty()) return r.fail(err);
    if (!std::isfinite(c.probeSeconds) || !std::isfinite(c.divergeLoss))
        return r.fail("probeSeconds and divergeLoss must be finite");
    return true;
}

} // namespace fb
