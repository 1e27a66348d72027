#include "app/window/about_text.h"

#include <QCoreApplication>

namespace fb {

QString aboutHtml()
{
    return QCoreApplication::translate("MainWindow",
        "<h3>FullBand %1</h3>"
        "<p>Live labs for the ideas behind the transformer and its newest correction, latent feedback.</p>"
        "<p><b>Sources</b><br>"
        "“The Road to Transformers”, a textbook chapter: sections 218.1–218.6, Figures 218.1 and 218.2.<br>"
        "“Transformer”, an encyclopedia page (PRIMO.ai) on the architecture: the cost formulas of the "
        "Costs lab (KV cache, 12·d² parameters per layer, C ≈ 6ND, attention against dense compute, the "
        "decode bandwidth ceiling).</p>"
        "<p>Lecture mode: F5; Page Down / Page Up step through a deck; Esc leaves. Deck editor: Ctrl+D; "
        "with a second screen, the presenter view shows the slide's notes there; on a slide of a lab that "
        "trains, space starts, pauses and resumes the training.</p>"
        "<p>Keys: F1 start page · F5 lecture mode · F6 parameter column · F7 explanation · F9 lab list · "
        "Ctrl+1 … Ctrl+9 and Ctrl+0 open the labs in the list's order, Alt+1 … the labs after the tenth · Ctrl+E export chart · "
        "Ctrl+Z / Ctrl+Shift+Z undo and redo.</p>"
        "<p>Built with Qt %2, Eigen and oneTBB.</p>").arg(QStringLiteral(FULLBAND_VERSION), QString::fromLatin1(qVersion()));
}

} // namespace fb
