#pragma once
// The transformer lab's writing panel (task = text): a prompt, the temperature, top-k, the length and
// the pace, and Write. The model writes character by character in a font a projector shows, from a
// copy of the weights it was last handed (while training: the newest snapshot's; after it: the
// trained model's; or a model file's), on core's background run (views/writing/writing_run.h): the
// GUI thread never computes and never waits. Beside the text the KV cache at work: every head's
// attention of the newest character over the cache (views/writing/cache_strips.h), the cache's bytes
// against the costs lab's 2 · L · t · d · bytes (the comparison's count with the recent options),
// and characters a second with the cache and recomputing the context. What is written is shown as
// the characters themselves (plain text).
#include "core/run/background_run.h"

#include <QWidget>

#include <memory>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace fb {

class CacheStrips;
class WritingRun;
struct TrainedTransformer;
struct TransformerFrame;

class WritingPanel : public QWidget {
    Q_OBJECT
public:
    explicit WritingPanel(QWidget *parent = nullptr);
    ~WritingPanel() override;  // abandons a writing and joins it (within one character)

    // The weights the next Write uses (null: none, Write disabled) and where they come from, in
    // words ("the weights at step 340"). A writing under way keeps its own copy.
    void setModel(std::shared_ptr<const TrainedTransformer> model, const QString &origin);
    const std::shared_ptr<const TrainedTransformer> &model() const { return model_; }
    void setFontScale(double scale);
    // The training's own sample (the snapshot's), shown in the text area until Write is pressed.
    void showSample(const QString &sample);

    // Write, as if clicked (a writing under way is stopped instead).
    void write();
    bool isWriting() const { return run_ != nullptr; }
    // Moves what the writing made into the widgets now (a timer does this at 30 Hz).
    void pull();
    // The student's own sentence: its attention maps with the current model, computed on a worker
    // (core/transformer/sentence_probe.h); they arrive as sentenceMaps, a refusal under the field.
    void probeSentence();
    QLineEdit *sentence() const { return sentence_; }
    QLabel *sentenceMessage() const { return sentenceMessage_; }

    QLineEdit *prompt() const { return prompt_; }
    QSpinBox *length() const { return length_; }
    QSpinBox *pace() const { return pace_; }
    QPushButton *writeButton() const { return write_; }
    QPlainTextEdit *output() const { return output_; }
    CacheStrips *strips() const { return strips_; }
    QLabel *cacheLine() const { return cache_; }
    QLabel *speedLine() const { return speed_; }

Q_SIGNALS:
    // Every head's attention on the sentence typed, ticks labelled with its characters.
    void sentenceMaps(std::shared_ptr<const fb::TransformerFrame> frame);

private:
    void finish();
    void updateButton();

    std::shared_ptr<const TrainedTransformer> model_;
    std::unique_ptr<WritingRun> run_;
    std::unique_ptr<BackgroundRun<int, std::shared_ptr<const TransformerFrame>>> probe_;
    QLineEdit *sentence_ = nullptr;
    QPushButton *probeButton_ = nullptr;
    QLabel *sentenceMessage_ = nullptr;
    QLabel *origin_ = nullptr;
    QLineEdit *prompt_ = nullptr;
    QDoubleSpinBox *temperature_ = nullptr;
    QSpinBox *topK_ = nullptr;
    QSpinBox *length_ = nullptr;
    QSpinBox *pace_ = nullptr;
    QPushButton *write_ = nullptr;
    QPlainTextEdit *output_ = nullptr;
    CacheStrips *strips_ = nullptr;
    QLabel *cache_ = nullptr;
    QProgressBar *cacheBar_ = nullptr;
    QLabel *speed_ = nullptr;
    QTimer *timer_ = nullptr;
    double fontScale_ = 1.0;
    int seed_ = 0;  // each Write draws with the next seed
    bool written_ = false;  // the text area holds a writing (not the training's sample)
};

} // namespace fb
