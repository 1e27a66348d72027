#pragma once
// A trained transformer as a file: its configuration (without the text it learnt), its sizes, its
// weights bit for bit, the text task's vocabulary, and the run's figures (curves, held-out losses,
// length table, final snapshot), so that a lecturer brings the model to class instead of training it
// again. Written all or nothing (core/io/atomic_file.h); read without trusting a byte.
//
// Layout (version 7), every number little-endian:
//   magic     8 bytes  89 'F' 'B' 'M' 0D 0A 1A 0A   (as PNG's: a text-mode transfer breaks it visibly)
//   version   u32      7 (versions 1 to 6 are read too: 1 without the model options, 2 without the
//                      answer tasks, 3 without the replay, 4 without the mixers, 5 without mqar's
//                      pairs_min and recall by pairs, 6 without the short convolution)
//   sections  u32      6 (5 before version 4)
//   then the sections in this order, each: tag (4 ASCII bytes), length (u32, bytes of payload), the
//   payload, and the CRC-32 of tag and payload (u32):
//   "CONF"  the TransformerConfig without its text: enums as u32, integers as i32, reals as f64, the
//           seed as u64, flags as u8 (model_file.cpp's writeConfig lists them in order); version 2
//           appends the model options (window, ...) and allows pos = alibi (3); version 3 the answer
//           tasks' keys; version 5 the mixer text (a u32 length, at most 400 bytes, then the bytes);
//           version 6 mqar's pairs_min (i32); version 7 short_conv (i32)
//   "SHAP"  the TransformerShape: vocab, d_model, layers, heads, obs inputs (i32), feedback, embed
//           scale (u8); it must be the shape the configuration gives for that vocabulary
//   "VOCA"  the text task's vocabulary: count n (u32; the shape's vocab for text, 0 otherwise),
//           <unk> id (i32, -1 for none), then n code points (u32) and n counts (u64)
//   "PARM"  the weights: count (u64, TransformerLayout(shape).total), then that many f32, all finite
//   "RUN_"  the TransformerResult: status, message, step counts, times, curves, held-out figures,
//           induction scores, the length table, the extended evaluation and the final snapshot
//           (writeRun lists them in order); counts bounded by the configuration's sizes; version 6
//           appends the recall by pairs: count (u32, at most recallPairCounts' size), then each
//           point's pairs (i32, 1 .. pairs) and accuracy (f64)
//   "REPL"  version 4: the run's replay, the snapshots the lab kept (without weights), steps
//           ascending: count (u32, at most kMaxReplay), then each snapshot as the final one is
//           written, with its two accuracies (f64); at most kMaxReplayBytes of maps, evenly thinned
// and nothing after the last section.
#include "core/transformer/transformer_report.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fb {

// What a model file holds.
struct SavedModel {
    TrainedTransformer model;  // config (text empty), shape, weights, and for text a vocabulary-only corpus
    TransformerResult run;     // the run's figures (run.model is null)
    // The run's replay: snapshots without weights, steps ascending (empty for files before version 4).
    std::vector<TransformerSnapshot> replay;
};

class ModelFile {
public:
    // 1: before the model options; 2: before the answer tasks; 3: before the replay; 4: before the
    // mixers; 5: before mqar's pairs_min and recall by pairs; 6: before the short convolution
    static constexpr std::uint32_t kVersion = 7;
    static constexpr std::size_t kMaxReplay = 96;                    // snapshots of a replay
    static constexpr std::size_t kMaxReplayBytes = std::size_t(32) << 20;  // their attention maps
    // Files larger than this are refused unread (the largest model the budget allows is ~110 MB).
    static constexpr std::size_t kMaxBytes = std::size_t(256) << 20;
    static constexpr std::string_view kMagic { "\x89" "FBM\r\n\x1a\n", 8 };
    static constexpr const char *kSuffix = ".fbmodel";

    // The bytes of a model file for model, the run that trained it and its replay (thinned by
    // thinReplay; weights left out).
    static std::string encode(const TrainedTransformer &model, const TransformerResult &run,
                              const std::vector<TransformerSnapshot> &replay = {});
    // The indices of replay a file keeps: evenly spread (the first and the last always), at most
    // kMaxReplay of them and at most kMaxReplayBytes of attention maps.
    static std::vector<std::size_t> thinReplay(const std::vector<TransformerSnapshot> &replay);
    // "" and out filled, or one sentence naming the first problem and what is valid (out unchanged).
    static std::string decode(std::string_view bytes, SavedModel &out);

    // Writes path all or nothing: "" or writeFileAtomically's sentence.
    static std::string save(const std::string &path, const TrainedTransformer &model, const TransformerResult &run,
                            const std::vector<TransformerSnapshot> &replay = {});
    // Reads path (a regular file of at most kMaxBytes): "" and out filled, or one sentence naming the
    // path and the problem, out unchanged.
    static std::string load(const std::string &path, SavedModel &out);
};

} // namespace fb
