#include "views/widgets/export_pens.h"

#include <QAbstractAxis>
#include <QChart>

#include <algorithm>

namespace fb {

namespace {

QPen logicalPixel(QPen pen)
{
    // A cosmetic pen (width 0 is one) keeps its width in device pixels; as a plain pen of at least 1
    // it scales with the painter like everything else.
    if (pen.isCosmetic()) {
        pen.setWidthF(std::max(pen.widthF(), 1.0));
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
