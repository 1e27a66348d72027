#include "views/export_pens.h"

#include <QAbstractAxis>
#include <QChart>

namespace fb {

namespace {

QPen logicalPixel(QPen pen)
{
    if (pen.widthF() == 0.0 || pen.isCosmetic()) {
        pen.setWidthF(1.0);  // a width of 1 scales with the painter; 0 (or a cosmetic pen) does not
        pen.setCosmetic(false);
    }
    return pen;
}

} // namespace

ExportPens::ExportPens(QChart *chart, qreal devicePixelRatio)
{
    if (!chart || devicePixelRatio <= 1.0 + 1e-9) return;
    for (QAbstractAxis *axis : chart->axes()) {
        saved_.append({ axis, axis->gridLinePen(), axis->minorGridLinePen(), axis->linePen() });
        axis->setGridLinePen(logicalPixel(axis->gridLinePen()));
        axis->setMinorGridLinePen(logicalPixel(axis->minorGridLinePen()));
        axis->setLinePen(logicalPixel(axis->linePen()));
    }
}

ExportPens::~ExportPens()
{
    for (const Saved &s : saved_) {
        s.axis->setGridLinePen(s.grid);
        s.axis->setMinorGridLinePen(s.minorGrid);
        s.axis->setLinePen(s.line);
    }
}

} // namespace fb
