#pragma once
// Switching parts of a trained transformer off at evaluation, TransformerLens's ablation hooks in
// FullBand's form: the forward pass (TransformerNet::forward) can be handed an Ablation, and every
// hook applies where its part enters the residual stream:
//   a head       its output (rows [h dh, (h+1) dh) of atty) is replaced before W_O reads it:
//                zero-ablation by 0, mean-ablation by that head's mean output over the held-out set
//   an FFN       the block's out = mid (W2 relu(W1 LN2 mid + b1) + b2 left out)
//   the feedback the full-bandwidth model's gate on h_{t-1} forced shut: every position reads
//                h_{t-1} = 0, as the first pass of the k-pass objective does
// Evaluation only: the training's forward and backward passes never see one. An empty Ablation
// leaves every number of the forward pass unchanged.
#include <string>
#include <vector>

namespace fb {

struct HeadId {
    int layer = 0;  // 0-based
    int head = 0;   // 0-based
    bool operator==(const HeadId &) const = default;
};

enum class AblationKind { Zero, Mean };

struct Ablation {
    std::vector<HeadId> heads;  // heads whose output is replaced
    AblationKind kind = AblationKind::Zero;
    // Mean-ablation: [layer] the mean of atty over the held-out set (d values: head h in rows
    // [h dh, (h+1) dh)), as TransformerEvaluator::headMeans computes it once.
    std::vector<std::vector<double>> means;
    std::vector<int> ffnOff;    // layers (0-based) whose FFN is switched off
    bool feedbackShut = false;

    bool empty() const { return heads.empty() && ffnOff.empty() && !feedbackShut; }
    bool ffnIsOff(int layer) const;

    // Every head of every layer (zero-ablation).
    static Ablation allHeads(int layers, int heads);
};

// "L2H1" for HeadId{1, 0}: the 1-based title the lab's attention maps carry.
std::string headName(const HeadId &id);

// Parses the command line's head list: comma-separated "L<l>H<h>" (one head) or "L<l>" (every head
// of layer l), 1-based, e.g. "L2H1,L2H3" or "L1,L2H2"; repeats are kept once, in order. Returns ""
// and fills out, or one sentence naming the key "ablate" and its valid range.
std::string parseHeadList(const std::string &text, int layers, int heads, std::vector<HeadId> &out);

// The key ablate in full: also "F<l>" (layer l's FFN switched off) and, with feedback on (feedback),
// "feedback" (the full-bandwidth model's gate shut), e.g. "L2H1,F1,feedback". Returns "" and sets out's
// heads, ffnOff and feedbackShut (kind and means unchanged), or one sentence naming the key and its
// valid range.
std::string parseAblation(const std::string &text, int layers, int heads, bool feedback, Ablation &out);

// What a switches off, by name: "L2H1", ... then "F1", ... then "feedback".
std::vector<std::string> ablationNames(const Ablation &a);

} // namespace fb
