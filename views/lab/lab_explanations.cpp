#include "views/lab/lab_explanations.h"

#include <QCoreApplication>

namespace fb {

namespace {

// Each lab: what it shows, the formula it draws, what to try. Rich text, a few short paragraphs.
QString explanationOf(const QString &name)
{
    auto tr = [](const char *text) { return QCoreApplication::translate("LabExplanation", text); };

    if (name == QLatin1String("depth-gradients")) return tr(
        "<p><b>What it shows.</b> Four studies of 218.1 and 218.2, all computed, one drawn large (<i>study in "
        "focus</i>). <i>depth</i>: the gradient ‖∂L/∂x<sub>l</sub>‖ at every layer of a plain stack and of a "
        "residual stack x<sub>l+1</sub> = x<sub>l</sub> + F(x<sub>l</sub>), relative to the output's. <i>block</i>: the "
        "chapter's residual block cell. <i>time</i>: the gradient through time of a vanilla RNN "
        "h<sub>t</sub> = tanh(W<sub>h</sub>h<sub>t−1</sub> + W<sub>x</sub>x<sub>t</sub> + b) against an LSTM. "
        "<i>classifier</i>: the chapter's LSTM against mean pooling, trained live.</p>"
        "<p><b>The formula.</b> ∂L/∂x = ∂L/∂H · (1 + ∂F/∂x): the additive 1 carries the gradient through the "
        "identity path even where ∂F/∂x vanishes.</p>"
        "<p><b>Try.</b> Depth L = 200 with tanh: the plain stack's gradient falls by orders of magnitude, the "
        "residual one does not. Without normalisation the residual gradient grows slowly, by about "
        "√(1 + ‖∂F/∂x‖²) per block: the identity path keeps it from vanishing, not constant. With RMS norm on, "
        "even the plain stack keeps its gradient, as He et al. (2016) observed for their normalised plain nets. "
        "In the time study, move the spectral radius ρ of W<sub>h</sub>: the RNN's gradient shrinks "
        "geometrically with the distance for ρ below 1.</p>"
        "<p><b>The residual block cell</b> (study = block): ∂L/∂x = ∂L/∂S + (∂F/∂x)ᵀ∂L/∂S, the chapter's "
        "(1 + ∂F/∂x) measured per channel. At branch gain γ = 0 the branch falls silent: the residual block "
        "still passes ∂L/∂S, the block without its shortcut passes exactly nothing.</p>"
        "<p><b>The chapter's classifier cell cannot run as printed.</b> It computes <tt>emb = embedding(X)</tt> "
        "once per step and backpropagates both losses through it: <tt>loss_lstm.backward()</tt> frees the graph "
        "behind <tt>emb</tt>, so <tt>loss_avg.backward()</tt> fails (&ldquo;Trying to backward through the graph "
        "a second time&rdquo;); and both optimisers update the one shared embedding. FullBand trains each arm on "
        "its own graph with its own embedding (both start from the same values). The label (mean token &gt; 10) "
        "is a linear function of the token counts, so mean pooling plus a linear layer fits it exactly. With the "
        "chapter's 8 training sequences both arms reach 100% on them and about chance on fresh ones; raise "
        "<i>training sequences</i> to see which arm generalises.</p>");

    if (name == QLatin1String("attention")) return tr(
        "<p><b>What it shows.</b> Self-attention as 218.4.1 and 218.4.2 write it: Q = XW<sub>Q</sub>, "
        "K = XW<sub>K</sub>, and every head computes softmax(QKᵀ/√d<sub>k</sub>) over its own d<sub>k</sub> = "
        "d_model / heads coordinates. One heatmap per head: each row is one query's distribution over the keys "
        "(rows sum to 1); all heads share one colour scale. The figures give each head's entropy.</p>"
        "<p><b>Positions</b> (218.4.3, 218.4.4): none, the sinusoidal table "
        "PE<sub>(pos, 2i)</sub> = sin(pos / 10000<sup>2i/d</sup>) added to the embeddings, or RoPE rotating each "
        "head's q and k.</p>"
        "<p><b>Try.</b> Positional = rope with content = repeated: every diagonal of the logits is then "
        "constant, because RoPE's logit depends only on the offset (the Toeplitz check reads zero). Positional = "
        "none with repeated content: every row is uniform, attention alone cannot tell positions apart. "
        "Scale off: the rows sharpen and the entropies fall, the saturation that 1/√d<sub>k</sub> prevents. "
        "Causal = 1 masks the keys after each query, as a decoder does.</p>");

    if (name == QLatin1String("rope-invariance")) return tr(
        "<p><b>What it shows.</b> Figure 218.1 (left): one fixed content pair q, k slides along the sequence, "
        "the key always <i>offset</i> positions after the query. Under RoPE the logit "
        "(R<sub>m</sub>q)ᵀ(R<sub>m+offset</sub>k) = qᵀR<sub>offset</sub>k does not depend on m; the additive "
        "sinusoidal logit (q + PE<sub>m</sub>)ᵀ(k + PE<sub>m+offset</sub>) wanders over a range comparable to "
        "its own size.</p>"
        "<p><b>The formula.</b> Rotations in a plane form a one-parameter group, R(α)ᵀR(β) = R(β − α), so "
        "absolute position cancels in every inner product (218.4.4).</p>"
        "<p><b>Try.</b> Any width d, base b or offset: the RoPE line stays flat, only its height changes. The "
        "deviation is the point: zero up to rounding under RoPE. q and k are drawn exactly as the chapter's cell "
        "draws them (torch.manual_seed(seed), then torch.randn(d) twice, reproduced bit for bit without "
        "PyTorch), so seed 0 and d = 64 give the chapter's printed numbers: logit 1.634715, deviation 0.00e+00, "
        "sinusoidal range [17.058, 41.833].</p>");

    if (name == QLatin1String("decay-bound")) return tr(
        "<p><b>What it shows.</b> Figure 218.1 (right): RoPE's long-term decay. With t = n − m and "
        "h<sub>i</sub> the pairs' contents, the relative logit is Σ<sub>i</sub> h<sub>i</sub>e<sup>itθ<sub>i</sub></sup>, "
        "and Abel summation bounds it by max<sub>i</sub>|h<sub>i+1</sub> − h<sub>i</sub>| · Σ<sub>j</sub>|S<sub>j</sub>(t)|, "
        "S<sub>j</sub>(t) = Σ<sub>i&lt;j</sub> e<sup>itθ<sub>i</sub></sup>. The content factor does not depend on t, "
        "so the curve, the mean |S<sub>j</sub>| over j, is the part of the ceiling the geometry alone fixes: it "
        "falls as the phases tθ<sub>i</sub> spread out and cancel. A ceiling, not a measurement of realised "
        "attention.</p>"
        "<p><b>The second chart</b>: the wavelength λ<sub>i</sub> = 2π/θ<sub>i</sub> of every pair, "
        "θ<sub>i</sub> = b<sup>−2i/d</sup>, against the trained context L.</p>"
        "<p><b>Try.</b> The chapter's d = 64, b = 10000 give 15.95 / 5.70 / 2.99 at distance 1 / 64 / 512, a "
        "fall of about five. Pin the curve, then raise the base b: the slowest pairs' wavelengths grow and the "
        "bound falls later. Choose a frequency scaling (PI, NTK-aware, YaRN) and a factor s: the dashed curves "
        "show how context extension rescales θ<sub>i</sub> to keep the bound from collapsing past the trained "
        "length.</p>");

    if (name == QLatin1String("capacity")) return tr(
        "<p><b>What it shows.</b> Figure 218.2 (left), 218.6.1: what crosses one decoding-step boundary. A "
        "sampled token carries at most I<sub>token</sub> = log<sub>2</sub>V bits (the shaded band, V from "
        "32,000 to 256,000). The top-layer state h<sub>t</sub>, as d coordinates seen through Gaussian noise of "
        "signal-to-noise ratio SNR each, carries I<sub>latent</sub> = (d/2)·log<sub>2</sub>(1 + SNR) bits.</p>"
        "<p><b>Try.</b> d = 4096, SNR = 10: 7,084.9 bits, about 417.6 times log<sub>2</sub>128,000 = 16.97 "
        "bits. Doubling the vocabulary buys exactly one more bit; doubling d doubles the latent capacity. At "
        "SNR = 1 each coordinate carries half a bit and the latent channel is still two orders of magnitude "
        "wider. The bound assumes independent coordinates and stays far below the 16·d bits the vector occupies "
        "in bfloat16.</p>");

    if (name == QLatin1String("glu-fusion")) return tr(
        "<p><b>What it shows.</b> The gated fusion of 218.6.2: u = [e ; h] joins the sampled token's embedding "
        "and the previous top-layer state, x<sub>t+1</sub> = (W<sub>a</sub>u) ⊙ σ(W<sub>b</sub>u). The first "
        "chart is the histogram of the gates σ(W<sub>b</sub>u), each a per-coordinate valve on the latent carry; "
        "the second, how much x<sub>t+1</sub> moves when h<sub>t</sub> is replaced, as the channel opens.</p>"
        "<p><b>The opening α</b> scales the h columns of both matrices: at α = 0 they are the chapter's zeroed "
        "columns and the decoder is the standard one, exactly (the chapter prints 0.0e+00); the feedback "
        "channel opens continuously as α grows, with nothing else in the stack changed. Dragging α reuses the "
        "draws: only widths, batch and seed draw W<sub>a</sub>, W<sub>b</sub>, e, h and h′ again.</p>"
        "<p><b>The cost.</b> 4d² parameters against 12d² per layer, 8d² FLOPs per token against 24d²L: both "
        "1/(3L), 1.04% at L = 32. <b>Try</b> seed 3 at the chapter's sizes: mean gate 0.495, 49.3% of the gates "
        "above 0.5.</p>");

    if (name == QLatin1String("transformer")) return tr(
        "<p><b>What it shows.</b> A small decoder-only transformer (218.4: attention heads, a 4d-wide "
        "feed-forward block, residual connections and layer norm in every block), trained live on this "
        "computer. <b>Start</b> trains it; the maps are each head's attention on a probe sequence, the curves "
        "its training and held-out losses, the table its held-out loss at T, 2T and 4T tokens.</p>"
        "<p><b>Tasks.</b> <i>induction</i>: a random block of tokens repeated; a head learns to attend from each "
        "repeated token to the token after its earlier occurrence (an induction head), and the loss on the "
        "repeat falls towards 0. <i>accumulator</i>: the phase accumulator of 218.6.5. <i>text</i>: the "
        "characters of a text file of yours.</p>"
        "<p><b>Try.</b> Positions none, sinusoidal or RoPE (218.4.3, 218.4.4), then compare the longer lengths "
        "in the table. Latent feedback (218.6.2) on the accumulator: <i>exact</i> trains the T sequential steps, "
        "<i>kpass</i> the k-pass objective of 218.6.4, whose step costs (k + 2)/3 of an ordinary one. Keep a run "
        "as a ghost to compare the next.</p>");

    if (name == QLatin1String("training")) return tr(
        "<p><b>What it shows.</b> Figure 218.2 (right), 218.6.5: the chapter's toy phase accumulator "
        "z<sub>t</sub> = (z<sub>t−1</sub> + a<sub>t</sub>) mod 1, with a<sub>t</sub> ~ U[0, 1) revealed one per "
        "step and the bucket y<sub>t</sub> = ⌊V<sub>b</sub>z<sub>t</sub>⌋ to emit. Two loops are trained live "
        "under teacher forcing: the token-only loop reads E[y<sub>t−1</sub>], the latent-feedback loop "
        "GLU(E[y<sub>t−1</sub>], h<sub>t−1</sub>). The curves are their cross entropies, the table their "
        "held-out loss and accuracy beside the chapter's.</p>"
        "<p><b>The floor.</b> Knowing only the previous bucket, the next phase is uniform on an arc of width "
        "1/V<sub>b</sub> that splits between two buckets as p and 1 − p with p ~ U(0, 1), so the token-only loop "
        "cannot go below E[H(p)] = 1/2 nat (the dashed line), for any V<sub>b</sub>. The latent loop carries "
        "z<sub>t−1</sub> itself in h<sub>t−1</sub> and has no such floor.</p>"
        "<p><b>Try.</b> Start with the chapter's values: token-only ends near 0.516 nats, just above the floor, "
        "latent feedback near 0.25. Set <i>feedback passes k</i> to 1, 2, 3 (0 is exact backpropagation through "
        "time) and keep each run as a ghost: each pass carries the state one step further. Raise "
        "<i>buckets</i>: the floor stays at 1/2 nat.</p>");

    if (name == QLatin1String("accounting")) return tr(
        "<p><b>What it shows.</b> Part C of 218.6.5, the costs of 218.6.2 and 218.6.4. The fusion adds 4d² "
        "parameters to 12d²L and 8d² FLOPs per decoded token to 24d²L: 1/(3L) each. A k-pass training step costs "
        "C<sub>k</sub> = (k − 1)F + 3F, so M<sub>k</sub> = (k + 2)/3 of an ordinary step. With a fraction ρ of "
        "latent-phase batches at k′ passes and the latent phase over the last fraction φ of pretraining, the "
        "run costs (1 − φ) + φ[(1 − ρ)M<sub>k</sub> + ρM<sub>k′</sub>] times the baseline, times the parameter "
        "overhead.</p>"
        "<p><b>The saving.</b> If the baseline needs <i>data ratio</i> times the tokens (the paper: about 1.5), "
        "C ≈ 6ND gives a saving of 1 − multiplier / ratio: 27.7% at the chapter's L = 32, φ = 0.2, ρ = 0.1. "
        "Illustrative schedule: the paper does not publish φ and ρ.</p>"
        "<p><b>Try.</b> Sweep φ instead of L; raise k; lower the data ratio towards the multiplier (1.085 at "
        "the chapter's values), where the saving reaches zero.</p>");

    if (name == QLatin1String("costs")) return tr(
        "<p><b>What it shows.</b> The cost formulas of the encyclopedia page on the Transformer. KV cache "
        "bytes ≈ 2 × layers × KV heads × head dimension × tokens × bytes per value, for multi-head, grouped-query "
        "and multi-query attention; parameters ≈ 12·L·d²; training compute C ≈ 6ND; attention ≈ 4·n·d against "
        "≈ 24·d² of dense work per token and layer; and the decode ceiling, bandwidth ÷ bytes of weights read "
        "per token.</p>"
        "<p><b>Try.</b> The defaults are the page's Llama-3-70B-class example: about 0.33 MB per token, 43 GB "
        "for one 128K sequence, 344 GB with 64 KV heads instead of 8, and about 70 tokens/s for 140 GB of "
        "weights at 10 TB/s. Load the other presets, or raise the context until attention overtakes dense compute "
        "(about n = 6d). These are back-of-envelope figures from the page: they ignore MoE, sliding windows and "
        "compression, and 12·L·d² assumes a 4× MLP.</p>");

    return {};
}

} // namespace

QString labExplanation(const QString &name)
{
    return explanationOf(name);
}

} // namespace fb
