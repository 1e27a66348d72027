#pragma once
// The parameter panel of a lab: for every parameter of a LabSpec a slider and a spin box (or a
// combo box, check box or text field), its unit and valid range visible, a reset button, and a
// message line. Invalid input is refused with a message naming the key and range, and changes
// nothing.
#include "core/lab/param_spec.h"

#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <string>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QLineEdit;
class QSlider;

namespace fb {

class NumberSpinBox;

class ParamPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParamPanel(const LabSpec &spec, QWidget *parent = nullptr);

    const LabSpec &spec() const { return spec_; }
    const ParamValues &values() const { return values_; }

    // Cross-key rules beyond each parameter's own range (e.g. d_model divisible by heads).
    // Returns an empty string when the values are acceptable.
    void setValidator(std::function<std::string(const ParamValues &)> validator);
    // Values that follow a change of one control (task = text brings the text's model size): called
    // with the candidate, the key the user changed and the values in force, before the checks.
    void setAdjuster(std::function<void(ParamValues &, const std::string &, const ParamValues &)> adjuster);
    // A grey line under key's row saying where its value comes from; non-empty also greys the row's
    // controls (the value takes no part). Empty: the row as usual.
    void setNote(const std::string &key, const QString &note);
    QString note(const std::string &key) const;

    // Applies all values (checked as a whole); on error shows and returns the message and keeps
    // the current values. Emits valuesChanged on success.
    QString setValues(const ParamValues &values);
    // The same with each parameter's own range checked but not the cross-key rules: the values of
    // something opened whose file the rules would ask for (a text model whose text this window does
    // not know). What the rules refuse is refused again when the values are used (Train says why).
    QString setValuesWithoutRules(const ParamValues &values);
    // Whether the values in force came without the cross-key rules (until values that pass them).
    bool rulesSkipped() const { return rulesSkipped_; }

    // Applies one parameter from text (as the command line does).
    QString setValue(const std::string &key, const std::string &text);

    // Back to the chapter's values.
    void reset();

    // The message shown (errors in red): under the row of the control that was changed, or at the
    // foot of the panel for values set as a whole.
    QString message() const;

    // How Browse… asks for a file (a file dialog; tests put their own): given the current path,
    // returns the chosen one, or an empty string when cancelled.
    void setFileChooser(std::function<QString(const QString &current)> chooser);
    // Browse… of a file parameter, as if clicked.
    void browse(const std::string &key);

    // Slider position <-> value, exposed for tests.
    static int sliderPosition(const ParamSpec &spec, double value);
    static double sliderValue(const ParamSpec &spec, int position);
    // The slider's last position (its range is 0 to this).
    static int sliderSteps(const ParamSpec &spec);
    static constexpr int kSliderSteps = 1000;

Q_SIGNALS:
    void valuesChanged(const fb::ParamValues &values);

protected:
    // Wrapped labels (a parameter's name and range on two lines) get the height their text needs
    // at their width: the grid would otherwise give them one line and cut the range.
    void resizeEvent(QResizeEvent *event) override;

private:
    // Takes values checked with the result err (empty: accepted), or shows err and keeps the current ones.
    QString apply(const ParamValues &values, const std::string &err, bool rulesSkipped);
    struct Row {
        const ParamSpec *spec = nullptr;
        QSlider *slider = nullptr;
        NumberSpinBox *spin = nullptr;
        QComboBox *combo = nullptr;
        QCheckBox *check = nullptr;
        QLineEdit *edit = nullptr;
        QLabel *message = nullptr;  // the refusal of a change of this row, right under it
        QLabel *note = nullptr;     // setNote's line, hidden when empty
        QLabel *label = nullptr;
        QPushButton *browse = nullptr;
        QString tip;                // the controls' tooltip
    };

    void buildRow(const ParamSpec &spec, QGridLayout *grid, int &row);
    // The control of key changed: check the candidate values; apply or refuse (said under its row).
    void propose(ParamValues candidate, const std::string &key);
    // A slider or spin box moved key to value; with skipRefused a single step onto a value the
    // validator refuses continues to the next accepted one.
    void proposeStep(const std::string &key, double value, bool skipRefused);
    void syncControls();
    // Greys the rows the values make the lab not read (LabSpec::isUsed), saying why in their tooltips.
    void syncUsed();
    // Shows text under key's row (empty key: at the foot of the panel) and hides the other messages.
    void showMessage(const QString &text, bool error, const std::string &key = {});

    LabSpec spec_;
    ParamValues values_;
    bool rulesSkipped_ = false;
    std::function<std::string(const ParamValues &)> validator_;
    std::function<void(ParamValues &, const std::string &, const ParamValues &)> adjuster_;
    std::map<std::string, Row> rows_;
    QLabel *message_ = nullptr;
    // The last values refused: a file chosen next completes them when only the file was missing
    // (task = text chosen before its file).
    std::optional<ParamValues> refused_;
    std::function<QString(const QString &)> fileChooser_;
    bool syncing_ = false;
    std::string typing_;  // the text field a keystroke is being proposed from
};

} // namespace fb

Q_DECLARE_METATYPE(fb::ParamValues)
