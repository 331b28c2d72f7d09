#include "views/tables/wrapping_header_view.h"

#include <QMenu>
#include <QStyleOptionHeader>

#include <algorithm>

namespace tracescope {

QString WrappingHeaderView::wrapped(const QString& text, const QFontMetrics& fm) {
    int best = fm.horizontalAdvance(text);
    qsizetype at = -1;
    for (qsizetype i = text.indexOf(QLatin1Char(' ')); i > 0; i = text.indexOf(QLatin1Char(' '), i + 1)) {
        // A parenthesised part stays on one line: "Δ (B − A)" wraps before "(", not inside it.
        if (text.left(i).count(QLatin1Char('(')) > text.left(i).count(QLatin1Char(')'))) continue;
        const int w = std::max(fm.horizontalAdvance(text.left(i)), fm.horizontalAdvance(text.mid(i + 1)));
        if (w < best) {
            best = w;
            at = i;
        }
    }
    if (at < 0) return text;
    return text.left(at) + QLatin1Char('\n') + text.mid(at + 1);
}

QSize WrappingHeaderView::sectionSizeFromContents(int logicalIndex) const {
    if (!model()) return QHeaderView::sectionSizeFromContents(logicalIndex);
    QStyleOptionHeader opt;
    initStyleOption(&opt);
    opt.section = logicalIndex;
    QFont f = font();
    const QVariant own = model()->headerData(logicalIndex, orientation(), Qt::FontRole);
    if (own.canConvert<QFont>()) f = qvariant_cast<QFont>(own);
    opt.fontMetrics = QFontMetrics(f);
    // Two lines for every section, so the header keeps one height whatever is shown.
    opt.text = QStringLiteral("X\nX");
    const int height = style()->sizeFromContents(QStyle::CT_HeaderSection, &opt, QSize(), this).height();
    opt.text = model()->headerData(logicalIndex, orientation(), Qt::DisplayRole).toString();
    if (logicalIndex != oneLine_) opt.text = wrapped(opt.text, opt.fontMetrics);
    // Room for the sort arrow only where it is (ColumnFitter measures again when the sort
    // column changes); QHeaderView reserves it in every section, a column's worth in a wide table.
    opt.sortIndicator = isSortIndicatorShown() && sortIndicatorSection() == logicalIndex ? QStyleOptionHeader::SortDown
                                                                                       : QStyleOptionHeader::None;
    QSize size = style()->sizeFromContents(QStyle::CT_HeaderSection, &opt, QSize(), this);
    size.setHeight(std::max(size.height(), height));
    return size;
}

void WrappingHeaderView::initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const {
    QHeaderView::initStyleOptionForIndex(option, logicalIndex);
    if (logicalIndex != oneLine_) option->text = wrapped(option->text, QFontMetrics(font()));
}

void fillColumnVisibilityMenu(QMenu& menu, QHeaderView& header) {
    const QAbstractItemModel* model = header.model();
    if (!model) return;
    int shown = 0;
    for (int c = 0; c < header.count(); ++c) shown += !header.isSectionHidden(c);
    for (int c = 0; c < header.count(); ++c) {
        QAction* a = menu.addAction(model->headerData(c, header.orientation(), Qt::DisplayRole).toString());
        a->setCheckable(true);
        a->setChecked(!header.isSectionHidden(c));
        a->setEnabled(header.isSectionHidden(c) || shown > 1);  // keep at least one column
        QHeaderView* h = &header;
        QObject::connect(a, &QAction::toggled, h, [h, c](bool on) { h->setSectionHidden(c, !on); });
    }
}

}  // namespace tracescope
