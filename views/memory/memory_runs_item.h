// The memory chart's data, drawn into its plot area as rects: per stacked layer a fill
// from the layer below up to the layer's most in each run of pixel columns, and an edge
// from its least to its most there (with the risers between runs); the fragmentation
// line as an edge only. The runs come from memoryRuns (model), one per pixel column at
// most, so a frame costs O(width) fills of axis-aligned rects, whereas a Qt Charts area
// series fills one polygon whose outline zigzags through every column, which Qt's raster
// engine does in time quadratic in the columns a scanline crosses (seconds at 1,200 px). The
// rects are blended into an image of the plot area when the frame is set; paint draws it.
#pragma once

#include "model/query/counter_layout.h"

#include <QColor>
#include <QGraphicsItem>
#include <QImage>

#include <vector>

namespace tracescope {

class MemoryRunsItem : public QGraphicsItem {
public:
    struct Layer {
        QColor fill, edge;
        std::vector<CounterRun> runs;  // aligned with the other layers' runs (memoryRuns)
    };

    explicit MemoryRunsItem(QGraphicsItem* parent) : QGraphicsItem(parent) {}

    // plot: the chart's plot area (parent coordinates); a layer value v sits at
    // v / top of its height, a fragmentation value f (0..1) at f of it.
    void setFrame(const QRectF& plot, double top, std::vector<Layer> layers, std::vector<CounterRun> fragmentation,
                  QColor fragmentationColor);
    void clear();

    QRectF boundingRect() const override { return plot_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    // The frame's pixels, with origin_ (parent coordinates) at their top left.
    QImage render(const QRectF& plot, double top, const std::vector<Layer>& layers,
                  const std::vector<CounterRun>& fragmentation, QColor fragmentationColor);
    QRectF plot_;
    QImage image_;
    QPoint origin_;
};

}  // namespace tracescope
