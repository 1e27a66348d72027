#pragma once
// The transformer lab's top chart on the text task: two tabs, "Attention maps" (the lab's maps) and
// "Writing" (views/writing/writing_panel.h), so that the writing panel gets the room of the maps
// on a 1024 x 768 projector. Other tasks show the maps alone, without a tab bar. Choosing the text
// task brings the writing tab forward; asking for a sentence's attention brings the maps.
#include <QTabWidget>

namespace fb {

class WritingPanel;

class WritingTabs : public QTabWidget {
    Q_OBJECT
public:
    WritingTabs(QWidget *maps, WritingPanel *writing, QWidget *parent = nullptr);

    // True: both tabs (the writing one brought forward when it appears); false: the maps alone.
    void setTextTask(bool text);
    bool isTextTask() const { return text_; }

private:
    bool text_ = false;
};

} // namespace fb
