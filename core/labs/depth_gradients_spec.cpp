#include "core/labs/depth_gradients_spec.h"

#include <charconv>

namespace fb {

std::string depthStudyName(DepthStudy s)
{
    switch (s) {
    case DepthStudy::Depth: return "depth";
    case DepthStudy::Block: return "block";
    case DepthStudy::Time: return "time";
    case DepthStudy::Classifier: return "classifier";
    }
    return "depth";
}

namespace {

ParamSpec seedSpec()
{
    return integerParam("seed", "seed", "", 0, 999999, 0,
                   "Random seed of the weights, the inputs and the training data: same seed, same numbers");
}

} // namespace

const LabSpec &depthLabSpec()
{
    static const LabSpec spec = [] {
        LabSpec s { "depth-gradients", "Depth and gradients", {}, "218.1, 218.2",
                    "Gradients through depth (plain against residual) and through time (RNN against LSTM), and "
                    "the chapter's LSTM against mean pooling, trained live.",
                    "218.1 Residual connections, 218.2 The RNN and LSTM era" };
        s.params = {
            choiceParam("study", "study in focus", { "depth", "block", "time", "classifier" }, "depth",
                   "Which study the lab shows large (all four are computed): gradients through depth, the "
                   "chapter's residual block cell, through time, or the LSTM vs mean-pooling classifier"),
            integerParam("depth", "depth L", "layers", 1, 200, 100,
                    "Number of layers in the plain and the residual stack", false),
            integerParam("width", "width w", "units", 2, 512, 128, "Units per layer", true),
            choiceParam("activation", "activation", { "relu", "tanh" }, "tanh", "The nonlinearity phi of every layer"),
            integerParam("norm", "RMS norm before each layer", "", 0, 1, 0,
                    "Normalise each layer's input to unit RMS (RMSNorm without gain, pre-norm)"),
            realParam("init_scale", "init scale σ", "", 0.05, 4.0, 0.577,
                 "W ~ N(0, σ²/w). 0.577 = 1/√3 is PyTorch's default for nn.Linear and nn.Conv2d, the "
                 "chapter's layers; 1 is LeCun/Xavier-style, √2 He init for ReLU",
                 true),
            seedSpec(),
            integerParam("blocks", "residual blocks (218.1 cell)", "", 1, 8, 1,
                    "Copies of the chapter's residual block in a row (1: the chapter's cell, 16 channels, "
                    "input 2 x 16 x 8 x 8)"),
            realParam("branch_gain", "branch gain γ (218.1 cell)", "", 0.0, 2.0, 1.0,
                 "Weight of each block's second BatchNorm: 1 is PyTorch's init, 0 silences the branch "
                 "(F = 0), and only the identity's gradient is left"),
            integerParam("seq_len", "sequence length T", "steps", 2, 500, 100,
                    "Length of the sequence the RNN and the LSTM run over in the gradient-through-time study"),
            integerParam("hidden", "hidden size", "units", 2, 256, 32,
                    "Hidden size of the RNN and the LSTM (the chapter's hidden_dim = 32)", true),
            realParam("radius", "spectral radius ρ of W_h", "", 0.1, 2.0, 0.9,
                 "The RNN's recurrent matrix is ρ times a random orthogonal matrix: every eigenvalue and "
                 "every singular value has size ρ"),
            realParam("forget_bias", "LSTM forget-gate bias b_f", "", -5.0, 8.0, 3.0,
                 "Bias of the forget gate f = σ(W_f[h, x] + b_f): large opens the gate (f near 1), "
                 "negative closes it"),
            integerParam("steps", "training steps", "", 1, 2000, 200, "Adam steps for each classifier arm (chapter: 200)", true),
            integerParam("batch", "training sequences", "", 1, 256, 8,
                    "Size of the classifier's fixed training set, used at every step (the chapter's batch_size = 8)",
                    true),
            realParam("lr", "learning rate", "", 1e-5, 1.0, 1e-2, "Adam's learning rate for the classifier (chapter: 1e-2)", true),
        };
        return s;
    }();
    return spec;
}

namespace {
// steps x batch x hidden x (hidden + embed) of the heaviest one-key change from the chapter's
// values: batch 256 (200 x 256 x 32 x 48 = 7.9e7) or hidden 256 (200 x 8 x 256 x 272 = 1.1e8).
constexpr double kMaxClassifierWork = 1.2e8;
} // namespace

std::string depthLabFrom(const ParamValues &v, DepthLabConfig &out)
{
    if (std::string err = checkAll(depthLabSpec(), v); !err.empty()) return err;
    DepthLabConfig c;
    const std::string &study = v.text("study");
    c.study = study == "time"         ? DepthStudy::Time
              : study == "classifier" ? DepthStudy::Classifier
              : study == "block"      ? DepthStudy::Block
                                      : DepthStudy::Depth;
    const auto seed = std::uint64_t(v.integer("seed"));

    c.stack.depth = int(v.integer("depth"));
    c.stack.width = int(v.integer("width"));
    c.stack.activation = v.text("activation") == "relu" ? Activation::Relu : Activation::Tanh;
    c.stack.norm = v.integer("norm") != 0;
    c.stack.initScale = v.number("init_scale");
    c.stack.seed = seed;

    c.block.seed = seed;  // the chapter's cell: torch.manual_seed(0), the lab's default seed
    c.block.blocks = int(v.integer("blocks"));
    c.block.branchGain = v.number("branch_gain");

    c.time.seqLen = int(v.integer("seq_len"));
    c.time.hidden = int(v.integer("hidden"));
    c.time.radius = v.number("radius");
    c.time.forgetBias = v.number("forget_bias");
    c.time.seed = seed;

    c.classifier.hidden = int(v.integer("hidden"));
    c.classifier.steps = int(v.integer("steps"));
    c.classifier.batch = int(v.integer("batch"));
    c.classifier.lr = v.number("lr");
    c.classifier.seed = seed;
    // The classifier retrains on every change: keep one training within a few seconds here.
    // Its cost grows as steps x batch x hidden x (hidden + embedding); the limit allows any one of
    // them at its maximum with the others at the chapter's values.
    const double work = double(c.classifier.steps) * double(c.classifier.batch) * double(c.classifier.hidden)
        * double(c.classifier.hidden + c.classifier.embed);
    if (work > kMaxClassifierWork) {
        // std::to_chars, not printf: the same text in every locale.
        auto g3 = [](double v) {
            char buf[32];
            const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 3);
            return std::string(buf, r.ptr);
        };
        return "steps x batch x hidden x (hidden + " + std::to_string(c.classifier.embed) + ") must be at most "
               + g3(kMaxClassifierWork) + " so the classifier trains in seconds, got " + g3(work) + " (steps "
               + std::to_string(c.classifier.steps) + ", batch " + std::to_string(c.classifier.batch) + ", hidden "
               + std::to_string(c.classifier.hidden) + ")";
    }
    if (std::string err = checkClassifierConfig(c.classifier, { ClassifierArm::Lstm, ClassifierArm::MeanPooling });
        !err.empty())
        return err;
    out = c;
    return {};
}

const LabSpec &lstmVsMeanSpec()
{
    static const LabSpec spec = [] {
        LabSpec s { "lstm-vs-mean", "LSTM vs mean pooling", {} };
        s.params = {
            choiceParam("task", "task", { "lstm-vs-mean" }, "lstm-vs-mean", "The training task"),
            choiceParam("arm", "arm", { "lstm", "mean-pooling", "both" }, "both", "Which arm(s) to train"),
            integerParam("steps", "training steps", "", 1, 100000, 200, "Adam steps per arm (chapter: 200)"),
            integerParam("batch", "training sequences", "", 1, 4096, 8,
                    "Size of the fixed training set used at every step (chapter: batch_size = 8)"),
            realParam("lr", "learning rate", "", 1e-6, 1.0, 1e-2, "Adam's learning rate (chapter: 1e-2)"),
            seedSpec(),
            integerParam("hidden", "hidden size", "units", 1, 512, 32, "LSTM hidden size (chapter: hidden_dim = 32)"),
            integerParam("embed", "embedding size", "", 1, 512, 16, "Embedding width (chapter: embed_dim = 16)"),
            integerParam("vocab", "vocabulary", "tokens", 2, 10000, 20, "Token ids are uniform in [0, vocab) (chapter: 20)"),
            integerParam("seq_len", "sequence length", "tokens", 1, 1000, 10, "Tokens per sequence (chapter: 10)"),
            integerParam("heldout", "held-out sequences", "", 1, 100000, 512, "Fresh sequences for the held-out accuracy"),
        };
        return s;
    }();
    return spec;
}

std::string lstmVsMeanFrom(const ParamValues &v, ClassifierConfig &out, std::vector<ClassifierArm> &arms)
{
    if (std::string err = checkAll(lstmVsMeanSpec(), v); !err.empty()) return err;
    ClassifierConfig c;
    c.steps = int(v.integer("steps"));
    c.batch = int(v.integer("batch"));
    c.lr = v.number("lr");
    c.seed = std::uint64_t(v.integer("seed"));
    c.hidden = int(v.integer("hidden"));
    c.embed = int(v.integer("embed"));
    c.vocab = int(v.integer("vocab"));
    c.seqLen = int(v.integer("seq_len"));
    c.heldout = int(v.integer("heldout"));
    const std::string &arm = v.text("arm");
    std::vector<ClassifierArm> a;
    if (arm != "mean-pooling") a.push_back(ClassifierArm::Lstm);
    if (arm != "lstm") a.push_back(ClassifierArm::MeanPooling);
    if (std::string err = checkClassifierConfig(c, a); !err.empty()) return err;
    out = c;
    arms = std::move(a);
    return {};
}

} // namespace fb
