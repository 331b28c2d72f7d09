#include "views/tables/column_fitter.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>

#include <algorithm>

namespace tracescope {

ColumnFitter::ColumnFitter(QAbstractItemView* view, QHeaderView* header)
    : QObject(view), view_(view), header_(header) {
    view_->viewport()->installEventFilter(this);
    // A header may size the sorted column for its arrow (WrappingHeaderView): measure again.
    connect(header_, &QHeaderView::sortIndicatorChanged, this, [this] {
        if (!content_.empty()) fit(maxTextWidth_);
    });
}

void ColumnFitter::fit(int maxTextWidth) {
    QAbstractItemModel* model = view_->model();
    if (!model) return;
    maxTextWidth_ = maxTextWidth;
    header_->setResizeContentsPrecision(200);  // the top rows decide: tables can hold 100k rows
    content_.assign(size_t(header_->count()), 0);
    for (int c = 0; c < header_->count(); ++c) {
        if (header_->isSectionHidden(c)) continue;
        // Cells get a margin beyond their text; the header's hint already has its own.
        int width = std::max(view_->sizeHintForColumn(c) + 14, header_->sectionSizeHint(c) + 4);
        // The elastic column is bounded by the viewport instead (apply()).
        content_[size_t(c)] = c == elastic_ ? width : std::min(width, maxTextWidth);
    }
    apply();
}

void ColumnFitter::apply() {
    if (content_.size() != size_t(header_->count())) return;
    int others = 0;
    for (int c = 0; c < header_->count(); ++c)
        if (c != elastic_ && !header_->isSectionHidden(c)) others += content_[size_t(c)];
    for (int c = 0; c < header_->count(); ++c) {
        if (header_->isSectionHidden(c) || content_[size_t(c)] == 0) continue;
        int width = content_[size_t(c)];
        if (c == elastic_) {
            int available = view_->viewport()->width() - others - 2;
            width = std::max(minElastic_, std::min(width, available));
        }
        header_->resizeSection(c, width);
    }
}

bool ColumnFitter::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && elastic_ >= 0) apply();
    return QObject::eventFilter(watched, event);
}

}  // namespace tracescope
