// The parameters of `fullband train` and of the training panel: keys, ranges and defaults (the
// chapter's values for Figure 218.2, 000_031aadcae6604a46.txt, 218.6.5).
#include "core/labs/training_spec.h"

namespace fb {

namespace {

LabSpec makeTrainSpec()
{
    LabSpec spec { "training", "Latent-feedback training", {}, "218.6.5, Figure 218.2 (right)",
                   "The chapter's toy accumulator trained live: token-only against latent feedback, exact or k passes.",
                   "218.6.5 Measuring the channel and the mechanism" };
    spec.params.push_back(choiceParam("arm", "arm", { "token-only", "latent-feedback", "both" }, "both",
                                      "Which loop to train: the token-only baseline, the latent-feedback loop, or both at once."));
    spec.params.push_back(integerParam("steps", "training steps", "", 1, 100000, 220, "Adam steps, one fresh batch each."));
    spec.params.push_back(integerParam("batch", "batch size", "sequences", 1, 4096, 128, "Sequences per training batch."));
    spec.params.push_back(realParam("lr", "learning rate", "", 1e-6, 1000, 8e-3,
                                    "Adam learning rate; large values (10) show the divergence stop.", true));
    spec.params.push_back(integerParam("seq_len", "sequence length T", "steps", 1, 256, 16, "Decoding steps per sequence."));
    spec.params.push_back(integerParam("buckets", "buckets V_b", "", 2, 64, 4, "Size of the emitted vocabulary."));
    spec.params.push_back(integerParam("d_emb", "embedding width", "", 1, 512, 16, "Width of the token embedding."));
    spec.params.push_back(integerParam("d_hid", "hidden width", "", 1, 1024, 64, "Width of the two tanh layers (and of h_t)."));
    spec.params.push_back(integerParam("d_fuse", "fused width", "", 1, 512, 16, "Width of the GLU-fused input of the latent arm."));
    spec.params.push_back(integerParam("passes", "feedback passes k", "", 0, 256, 0,
                                       "Latent arm: 0 = exact backpropagation through time, k = the k-pass objective "
                                       "(at most seq_len)."));
    spec.params.push_back(integerParam("seed", "seed", "", 0, 2147483648.0, 0, "Seed of the initialisation and of the batches."));
    spec.params.push_back(realParam("clip", "gradient clip", "", 0, 1000, 0, "Gradient-norm clipping threshold; 0 = off."));
    spec.trains = true;
    return spec;
}

} // namespace

const LabSpec &trainSpec()
{
    static const LabSpec spec = makeTrainSpec();
    return spec;
}

std::string trainFrom(const ParamValues &v, TrainConfig &out, bool &bothArms)
{
    const LabSpec &spec = trainSpec();
    if (std::string err = checkAll(spec, v); !err.empty()) return err;
    TrainConfig c;
    const std::string &arm = v.text("arm");
    bothArms = arm == "both";
    c.arm = arm == "token-only" ? Arm::TokenOnly : Arm::LatentFeedback;
    c.steps = int(v.integer("steps"));
    c.batch = int(v.integer("batch"));
    c.lr = v.number("lr");
    c.seqLen = int(v.integer("seq_len"));
    c.buckets = int(v.integer("buckets"));
    c.dEmb = int(v.integer("d_emb"));
    c.dHid = int(v.integer("d_hid"));
    c.dFuse = int(v.integer("d_fuse"));
    c.passes = int(v.integer("passes"));
    c.seed = std::uint64_t(v.integer("seed"));
    c.clip = v.number("clip");
    if (c.passes > c.seqLen)
        return "passes must be an integer in [0, seq_len] = [0, " + std::to_string(c.seqLen)
               + "] (0 = exact backpropagation through time), got " + std::to_string(c.passes);
    if (std::string err = checkTrainConfig(c); !err.empty()) return err;
    if (bothArms) {
        // The two arms train at the same time: their memory and work add up.
        TrainConfig token = c, latent = c;
        token.arm = Arm::TokenOnly;
        latent.arm = Arm::LatentFeedback;
        Cost both = trainCost(token);
        both += trainCost(latent);
        if (std::string err = checkBudget("training both arms with batch x seq_len at these widths", both,
                                          "lower steps, batch, seq_len or d_hid, or train one arm");
            !err.empty())
            return err;
    }
    out = c;
    return {};
}

} // namespace fb
