// Keeps a table's or tree's columns readable: numbers get their content width, and one
// elastic text column (the name) gets what is left of the viewport, between a minimum
// and its own content width, so the metric columns stay on screen when names are long; other
// text columns may be made shrinkable too.
// Re-applied when the view is resized.
#pragma once

#include <QObject>

#include <utility>
#include <vector>

class QAbstractItemView;
class QHeaderView;

namespace tracescope {

class ColumnFitter : public QObject {
    Q_OBJECT
public:
    ColumnFitter(QAbstractItemView* view, QHeaderView* header);

    void setElasticColumn(int column, int minWidth = 180) {
        elastic_ = column;
        minElastic_ = minWidth;
    }
    // Another text column (e.g. a kernel's op) that gives up width, down to `minWidth`, with the
    // elastic one when the columns would not fit the viewport (each in proportion to its content).
    void addShrinkableColumn(int column, int minWidth = 100) { shrinkable_.push_back({column, minWidth}); }
    // Measures the columns' content (the top rows decide) and applies the widths; columns
    // other than the elastic one are at most maxTextWidth wide.
    void fit(int maxTextWidth = 460);
    // Applies the measured widths to the current viewport width.
    void apply();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAbstractItemView* view_;
    QHeaderView* header_;
    int elastic_ = -1;
    int minElastic_ = 180;
    std::vector<std::pair<int, int>> shrinkable_;  // (column, minimum width)
    std::vector<int> content_;  // measured width per logical column
    int maxTextWidth_ = 460;
};

}  // namespace tracescope
