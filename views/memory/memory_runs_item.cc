#include "views/memory/memory_runs_item.h"

#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <functional>

namespace tracescope {

namespace {

// The edge of a series: each run's least..most (at least a pixel tall) and, where a run
// follows the previous one directly, the riser joining their values.
void addEdges(const std::vector<CounterRun>& runs, int left, const std::function<int(double)>& y,
              std::vector<QRect>& out) {
    for (size_t k = 0; k < runs.size(); ++k) {
        const CounterRun& r = runs[k];
        if (std::isnan(r.min)) continue;
        const int yMax = y(r.max), yMin = y(r.min);
        out.emplace_back(left + r.x0, yMax, r.x1 - r.x0, std::max(1, yMin - yMax + 1));
        if (k > 0 && runs[k - 1].x1 == r.x0 && !std::isnan(runs[k - 1].min)) {
            const CounterRun& prev = runs[k - 1];
            const int y0 = y(std::max(prev.max, r.max)), y1 = y(std::min(prev.min, r.min));
            if (y1 > y0) out.emplace_back(left + r.x0, y0, 1, y1 - y0 + 1);
        }
    }
}

// Source-over fill of `r` (clipped to the image) with the premultiplied colour `c`, written
// pixel by pixel. QPainter is not used for the rects: Qt's raster engine hands each fill of 96
// scanlines or more to its thread pool in pieces (qdrawhelper's QT_THREAD_PARALLEL_FILLS), and a
// chart of a thousand tall one-pixel columns became thousands of round trips through the pool
// (50-140 ms of the UI thread when the Memory tab was shown, most of it waiting).
void blendRect(QImage& image, QRect r, QRgb c) {
    r = r.intersected(image.rect());
    if (r.isEmpty()) return;
    const uint alpha = qAlpha(c);
    for (int y = r.top(); y <= r.bottom(); ++y) {
        QRgb* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = r.left(); x <= r.right(); ++x) {
            if (alpha == 255) {
                line[x] = c;
                continue;
            }
            const QRgb d = line[x];
            const uint keep = 255 - alpha;
            line[x] = qRgba(qRed(c) + qRed(d) * keep / 255, qGreen(c) + qGreen(d) * keep / 255,
                            qBlue(c) + qBlue(d) * keep / 255, alpha + qAlpha(d) * keep / 255);
        }
    }
}

void blendRects(QImage& image, const std::vector<QRect>& rects, QPoint origin, const QColor& colour) {
    const QRgb c = qPremultiply(colour.rgba());
    for (const QRect& r : rects) blendRect(image, r.translated(-origin), c);
}

}  // namespace

void MemoryRunsItem::setFrame(const QRectF& plot, double top, std::vector<Layer> layers,
                              std::vector<CounterRun> fragmentation, QColor fragmentationColor) {
    prepareGeometryChange();
    plot_ = plot;
    image_ = plot.isEmpty() ? QImage() : render(plot, top > 0 ? top : 1, layers, fragmentation, fragmentationColor);
    update();
}

void MemoryRunsItem::clear() { setFrame(QRectF(), 1, {}, {}, {}); }

QImage MemoryRunsItem::render(const QRectF& plot, double top, const std::vector<Layer>& layers,
                              const std::vector<CounterRun>& fragmentation, QColor fragmentationColor) {
    const int left = int(std::lround(plot.left()));
    const double bottom = plot.bottom(), height = plot.height();
    const auto yAt = [&](double fraction) {
        return int(std::lround(bottom - std::clamp(fraction, 0.0, 1.0) * height));
    };
    const std::function<int(double)> layerY = [&](double v) { return yAt(v / top); };
    // The rects sit on whole pixels; they are blended into an image of the plot area, made once
    // per frame and drawn by paint().
    origin_ = QPoint(left, int(std::floor(plot.top())));
    QImage image(int(std::ceil(plot.right())) - origin_.x() + 1, int(std::lround(bottom)) - origin_.y() + 1,
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    std::vector<QRect> fills, edges;
    for (size_t l = 0; l < layers.size(); ++l) {
        const std::vector<CounterRun>& runs = layers[l].runs;
        const std::vector<CounterRun>* below = l > 0 ? &layers[l - 1].runs : nullptr;
        fills.clear();
        edges.clear();
        // The fill reaches down to the layer below's most in the same columns, so the
        // layers tile the area under the top one without overlapping.
        for (size_t k = 0; k < runs.size(); ++k) {
            const CounterRun& r = runs[k];
            if (std::isnan(r.max)) continue;
            const double floor = below && k < below->size() && !std::isnan((*below)[k].max) ? (*below)[k].max : 0.0;
            const int yTop = layerY(r.max), yBottom = layerY(floor);
            if (yBottom > yTop) fills.emplace_back(left + r.x0, yTop, r.x1 - r.x0, yBottom - yTop);
        }
        addEdges(runs, left, layerY, edges);
        blendRects(image, fills, origin_, layers[l].fill);
        blendRects(image, edges, origin_, layers[l].edge);
    }
    edges.clear();
    addEdges(
        fragmentation, left, [&](double f) { return yAt(f); }, edges);
    blendRects(image, edges, origin_, fragmentationColor);
    return image;
}

void MemoryRunsItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (image_.isNull()) return;
    painter->save();
    painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter->drawImage(origin_, image_);
    painter->restore();
}

}  // namespace tracescope
