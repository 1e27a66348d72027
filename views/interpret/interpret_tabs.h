#pragma once
// The trained transformer taken apart, in the transformer lab (issue 27): the attention maps share
// their place with three more pages, filled when a run ends from what the run computed
// (TransformerResult's anatomy fields):
//   Heads       HeadAblationPanel: click heads off, the losses recomputed on a worker
//   Logit lens  the held-out loss read after each layer, per input position (ValueGrid)
//   Offsets     a chosen head's mean logit against offset, by RoPE pair, against the decay bound
//   States      the linear mixers' states as the probe streams through them (StatePage; its tab
//               only when the model has a linear mixer). The newest frame's: on this page the
//               replay returns to live and its bar gives its place to the page's Play and position.
// and, beside the page tabs, the maps' layer (all, or one layer's heads drawn large: a text model's
// 16 maps in one row of a slide were 30 pixels each) and the replay's step slider over the run's
// frames (ReplayBar). Before a
// run's first frame the tab bar is hidden (the maps alone, as the slide of an untrained model shows
// them, with the height a projector's slide has), and the replay's bar with it.
// Draws what it is given; computes nothing.
#include "core/transformer/transformer_report.h"
#include "views/training/transformer_run.h"
#include "views/widgets/heatmap_grid.h"

#include <QJsonValue>
#include <QTabWidget>

#include <memory>
#include <vector>

class QComboBox;

namespace fb {

class HeadAblationPanel;
class HeatmapGrid;
class OffsetProfileChart;
class ReplayBar;
class StatePage;
class ValueGrid;

class InterpretTabs : public QTabWidget {
    Q_OBJECT
public:
    // The largest the tabs' row is set in lecture mode, times the usual font (1.3 cost the induction
    // slide's loss chart 7 of its plot's pixels with the explanation shown: the least a slide allows)
    static constexpr double kLectureRowScale = 1.15;

    // maps: the lab's attention maps, the first page (clicks on a head's map switch it off).
    explicit InterpretTabs(HeatmapGrid *maps, QWidget *parent = nullptr);

    void setResult(const TransformerResult &result);
    // A frame of the running run, for the replay; the first shows the tab bar.
    void recordFrame(std::shared_ptr<const TransformerFrame> frame);
    // The maps of a replayed frame: drawn with the heads switched off now shown in grey.
    void showMaps(const HeatmapGridData &maps);
    // The states page follows the replay's frame: the newest states (recordFrame keeps them) when
    // live or on the States page itself, else that frame's (the replay keeps the states of its newest
    // frame only: an older frame says so).
    void showStates(const std::shared_ptr<const TransformerFrame> &frame, bool live);
    void clear();
    void setFontScale(double scale);

    // The page a slide names ("page" in a scene's extra): attention, heads, logit-lens, offsets or
    // states. It stays the page shown when a run is cleared and started again (the states page: from
    // the run's first frame, the maps until then). An unknown name changes nothing and returns false.
    static QStringList pageNames();
    bool setPage(const QString &name);
    QString pageName() const;  // the page shown now

    // The layer whose heads the attention maps show, 1 to the model's layers, or 0 for every layer
    // ("maps_layer" in a scene's extra). It stays when a run is cleared; a model of fewer layers
    // shows them all. Out of 0 .. kMostLayers: false, nothing changed.
    static constexpr int kMostLayers = 8;
    bool setMapsLayer(int layer);
    // A slide's "maps_layer" (undefined: 0) into layer; an error naming the range for anything but a
    // whole number from 0 to kMostLayers (layer then unchanged)
    static QString mapsLayerFrom(const QJsonValue &value, int &layer);
    int mapsLayer() const { return mapsLayer_; }
    // The shape of the model the maps show (a run's frames and result set it; the view sets that of
    // an untrained model's preview): the chooser's entries, L1 to the layers (at most kMostLayers)
    void setModelShape(int layers, int heads);
    QComboBox *layerChoice() const { return layer_; }

    HeadAblationPanel *ablation() const { return ablation_; }
    ValueGrid *lens() const { return lens_; }
    OffsetProfileChart *offsets() const { return offsets_; }
    QComboBox *offsetHead() const { return head_; }
    ReplayBar *replay() const { return replay_; }
    StatePage *states() const { return states_; }

protected:
    void resizeEvent(QResizeEvent *event) override;  // lecture mode: the row's font follows its width

private:
    void showHead(int index);
    // The maps' shown panels for the chosen layer, and the chooser shown where it has a choice
    void applyLayer();
    void showLayerChoice();  // on the maps' page, for a model of more than one layer
    // The maps as given, with the switched-off heads' images turned grey.
    void markHeadsOff();
    // The tab bar's row in lecture mode: larger than the usual font where its width holds it,
    // smaller where it does not (a projector's slide has no height to spare).
    void fitRow();

    HeadAblationPanel *ablation_ = nullptr;
    ValueGrid *lens_ = nullptr;
    OffsetProfileChart *offsets_ = nullptr;
    QComboBox *head_ = nullptr;
    QComboBox *layer_ = nullptr;
    int mapsLayer_ = 0;              // 0: every layer
    int shapeLayers_ = 0, shapeHeads_ = 0;
    ReplayBar *replay_ = nullptr;
    StatePage *states_ = nullptr;
    std::shared_ptr<const TransformerStates> newestStates_;  // of the newest frame recorded
    HeatmapGrid *maps_ = nullptr;
    HeatmapGridData mapsGiven_;  // the maps as the run drew them, before markHeadsOff
    double fontScale_ = 1.0;
    QFont usualFont_;  // the application's font out of lecture mode
    int heads_ = 0;
    QWidget *pinned_ = nullptr;  // the page setPage chose
    std::vector<std::vector<std::vector<double>>> profile_;               // [layer][head][delta]
    std::vector<std::vector<std::vector<std::vector<double>>>> pairs_;    // [layer][head][pair][delta]
    std::vector<std::vector<std::vector<double>>> bound_;                 // [layer][head][delta]
};

} // namespace fb
