#include "views/writing/writing_tabs.h"

#include "views/writing/writing_panel.h"

#include <QTabBar>

namespace fb {

WritingTabs::WritingTabs(QWidget *maps, WritingPanel *writing, QWidget *parent)
    : QTabWidget(parent)
{
    setObjectName(QStringLiteral("writingTabs"));
    setDocumentMode(true);
    // Tabs on the left: the tab bar costs the charts width, of which a projector has more than height.
    setTabPosition(QTabWidget::West);
    addTab(maps, tr("Attention maps"));
    addTab(writing, tr("Writing"));
    // The maps tab keeps the curves below it; the writing tab hides them and takes their height
    // (TransformerView), so its own minimum must not make the maps tab taller.
    writing->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    setTabToolTip(1, tr("Write with the model, and watch its KV cache while it writes"));
    connect(writing, &WritingPanel::sentenceMaps, this, [this] { setCurrentIndex(0); });
    setTabVisible(1, false);
    tabBar()->hide();
}

void WritingTabs::setTextTask(bool text)
{
    if (text == text_) return;
    text_ = text;
    setTabVisible(1, text);
    tabBar()->setVisible(text);
    setCurrentIndex(text ? 1 : 0);
}

} // namespace fb
