// Draws a call tree as an icicle (model/query/flame_layout.h gives the rectangles): the root's
// callees on the first row, their callees below. Click a frame to zoom into it (an ancestor row
// zooms back out), hover for its full name and figures, double-click to show its slices in the
// timeline; the context menu pivots on a frame. Search marks the frames whose name contains the
// text and dims the others.
#pragma once

#include "model/analysis/call_tree.h"
#include "model/query/flame_layout.h"

#include <QWidget>

#include <memory>

namespace tracescope {

class FlameGraphWidget : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraphWidget(QWidget* parent = nullptr);

    // A new tree: zoomed out. `rootLabel` names the whole ("all threads") in tooltips.
    void setTree(std::shared_ptr<const CallTree> tree);
    const CallTree* tree() const { return tree_.get(); }
    void setMetric(CallMetric metric);
    void setSearch(const QString& text);
    void setFocusNode(uint32_t node);
    // Whether a frame's slices can be shown (double click, context menu): not for a pivot's merged trees.
    void setSlicesShown(bool shown) { slicesShown_ = shown; }
    uint32_t focusNode() const { return focus_; }
    const FlameLayout& layout() const { return layout_; }
    // "Matched 12.5 % of the focus" for the search box's neighbour (empty without a search).
    QString matchSummary() const;
    // The figures of a frame as the tooltip shows them.
    QString frameText(uint32_t node) const;

    static constexpr int kRowHeight = 20;
    QSize sizeHint() const override;

signals:
    void focusChanged(uint32_t node);
    void frameActivated(uint32_t node);  // double click: show its slices
    void pivotRequested(uint32_t node);  // context menu
    void searchMatched();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    void relayout();
    const FlameRect* rectAt(QPoint p) const;
    QColor colorOf(const FlameRect& r) const;

    std::shared_ptr<const CallTree> tree_;
    CallMetric metric_ = CallMetric::Wall;
    std::string search_;
    uint32_t focus_ = kCallRoot;
    bool slicesShown_ = true;
    FlameLayout layout_;
};

}  // namespace tracescope
