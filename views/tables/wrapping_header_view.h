// A horizontal table header that puts a multi-word column title on two lines
// ("Self CUDA %" -> "Self CUDA" / "%"), so that numeric columns are as narrow as
// their numbers rather than their titles and a wide table's columns all fit in a
// 1280 px window. The model's header text stays one line (CSV, column menus).
#pragma once

#include <QHeaderView>

class QMenu;

namespace tracescope {

class WrappingHeaderView : public QHeaderView {
    Q_OBJECT
public:
    explicit WrappingHeaderView(QWidget* parent = nullptr) : QHeaderView(Qt::Horizontal, parent) {}

    // `text` on two lines split at the space (outside parentheses) that makes the wider line narrowest; unchanged
    // when it has no space or splitting would not make it narrower.
    static QString wrapped(const QString& text, const QFontMetrics& fm);
    // A column whose title stays on one line (the wide name column: no width to save there).
    void keepOneLine(int logicalIndex) { oneLine_ = logicalIndex; }

protected:
    QSize sectionSizeFromContents(int logicalIndex) const override;
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override;

private:
    int oneLine_ = -1;
};

// One checkable entry per column of `header` that hides or shows it (at least one column
// stays shown): the header's context menu of every table and tree.
void fillColumnVisibilityMenu(QMenu& menu, QHeaderView& header);

}  // namespace tracescope
