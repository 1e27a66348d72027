#pragma once
// FullBand's labs, defined once. Each lab is a class in core/labs/ of this shape:
//
//   class DecayBoundLab {
//   public:
//       using Result = DecayBoundLabResult;           // every figure the lab shows, typed
//       static const LabSpec &spec();                 // name, title, source, summary, parameters
//       static std::string check(const ParamValues &); // "" or one sentence naming the key and range
//       Result compute(const ParamValues &, const RunControl &stop);  // checked values; may keep
//                                                     // caches between calls (one thread at a time)
//   };
//   void writeJson(JsonWriter &, const DecayBoundLabResult &);
//
// A lab whose memory or work grows with its sizes also has static Cost cost(const ParamValues &), and
// its check refuses values over the budget of core/run/budget.h with the figure (the closed-form labs,
// capacity, accounting, costs, KV cache and context extension, need none).
// compute throws std::invalid_argument with check's message for refused values, and returns early
// (with a partial result nobody reads) once stop asks. labDefinitions() lists every lab in the
// chapter's order; the command line, the window's sidebar, scenes, decks and the fuzz dictionary all
// read it. Adding a lab: its core file pair, its view, its tests and one line in core/labs/lab_list.cpp
// (plus, for a lab of the window, its view, icon and README row: see README.md, "Layout").
#include "core/io/json_writer.h"
#include "core/lab/param_spec.h"
#include "core/run/run_control.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fb {

struct LabDefinition {
    const LabSpec &(*spec)() = nullptr;
    bool inWindow = true;  // a lab of the window's sidebar (with a view); false: command line only
    std::string (*check)(const ParamValues &) = nullptr;
    // Computes checked values and writes the result as one JSON object; null for labs that have a
    // command of their own (`fullband train`).
    std::function<void(const ParamValues &, const RunControl &, JsonWriter &)> computeJson;

    const std::string &name() const { return spec().name; }
};

// Every lab, in the chapter's order.
const std::vector<LabDefinition> &labDefinitions();
// The lab called name ("decay-bound", ...), or nullptr.
const LabDefinition *findLab(std::string_view name);
// The spec of a lab the window shows (what scenes and decks may name), or nullptr.
const LabSpec *windowLabSpec(std::string_view name);
// "depth-gradients, attention, ..." (every lab, or only those `fullband compute` runs).
std::string labNameList(bool computableOnly = false);

// A definition from a lab class of the shape above. A lab whose command-line output is not its
// result's JSON (the depth lab prints each study's own object) provides static definition().
enum class Shown { InWindow, CommandLineOnly };

template <typename Lab>
LabDefinition labDefinition(Shown shown = Shown::InWindow)
{
    LabDefinition d;
    if constexpr (requires { Lab::definition(); }) {
        d = Lab::definition();
    } else {
        d.spec = &Lab::spec;
        d.check = &Lab::check;
        d.computeJson = [](const ParamValues &values, const RunControl &stop, JsonWriter &json) {
            Lab lab;
            writeJson(json, lab.compute(values, stop));
        };
    }
    d.inWindow = shown == Shown::InWindow;
    return d;
}

// For a lab's compute: throws std::invalid_argument(message) unless message is empty.
inline void refuseUnless(const std::string &message)
{
    if (!message.empty()) throw std::invalid_argument(message);
}

} // namespace fb
