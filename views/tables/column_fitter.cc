#include "views/tables/column_fitter.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

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
    // The top rows decide: tables can hold 100k rows. A tree measures a column's rows with its
    // header's precision, a table with its vertical header's (Qt's default there: 1000 rows,
    // which made fitting a wide table most of its page's first show).
    header_->setResizeContentsPrecision(200);
    if (auto* table = qobject_cast<QTableView*>(view_)) table->verticalHeader()->setResizeContentsPrecision(200);
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
    // Flexible columns (the elastic one and the shrinkable ones) with their minimum widths.
    std::vector<std::pair<int, int>> flexible;
    if (elastic_ >= 0) flexible.push_back({elastic_, minElastic_});
    for (const auto& s : shrinkable_)
        if (s.first != elastic_) flexible.push_back(s);
    // A column narrower than its minimum keeps its own width.
    for (auto& [column, minWidth] : flexible)
        if (column < int(content_.size())) minWidth = std::min(minWidth, content_[size_t(column)]);
    auto isFlexible = [&](int c) {
        return std::any_of(flexible.begin(), flexible.end(), [c](const auto& f) { return f.first == c; });
    };
    int fixed = 0, flexibleContent = 0;
    for (int c = 0; c < header_->count(); ++c) {
        if (header_->isSectionHidden(c) || c >= int(content_.size())) continue;
        (isFlexible(c) ? flexibleContent : fixed) += content_[size_t(c)];
    }
    const int room = std::max(view_->viewport()->width() - fixed - 2, 0);
    // The room left, shared in proportion to each flexible column's content, each at least its
    // minimum; what the minimums take beyond the room comes off the widest ones still above theirs.
    std::vector<int> widths(content_.begin(), content_.end());
    if (flexibleContent > room && flexibleContent > 0) {
        int used = 0;
        for (const auto& [column, minWidth] : flexible) {
            if (header_->isSectionHidden(column) || column >= int(widths.size())) continue;
            int& w = widths[size_t(column)];
            w = std::max(minWidth, int(int64_t(w) * room / flexibleContent));
            used += w;
        }
        for (int over = used - room; over > 0;) {
            int widest = -1, slack = 0;
            for (const auto& [column, minWidth] : flexible)
                if (column < int(widths.size()) && !header_->isSectionHidden(column) &&
                    widths[size_t(column)] - minWidth > slack) {
                    widest = column;
                    slack = widths[size_t(column)] - minWidth;
                }
            if (widest < 0) break;  // every flexible column at its minimum: the table scrolls
            const int cut = std::min(over, slack);
            widths[size_t(widest)] -= cut;
            over -= cut;
        }
    }
    for (int c = 0; c < header_->count(); ++c)
        if (!header_->isSectionHidden(c) && content_[size_t(c)] != 0) header_->resizeSection(c, widths[size_t(c)]);
}

bool ColumnFitter::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && (elastic_ >= 0 || !shrinkable_.empty())) apply();
    return QObject::eventFilter(watched, event);
}

}  // namespace tracescope
