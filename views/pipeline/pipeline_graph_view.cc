#include "views/pipeline/pipeline_graph_view.h"

#include "views/pipeline/graph_layout.h"
#include "views/theme_colors.h"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

constexpr double kPadX = 10, kPadY = 7;
constexpr double kMinZoom = 0.2, kMaxZoom = 4.0;

QColor bottleneckColor() { return QColor(0xd3, 0x2f, 0x2f); }
QColor nonBlockingColor() { return QColor(0x9e, 0x9e, 0x9e); }

QPen nodePen(PipelineGraphNode::Style style, const QPalette& pal) {
    switch (style) {
        case PipelineGraphNode::Style::Bottleneck: return QPen(bottleneckColor(), 4);
        case PipelineGraphNode::Style::Blocking: return QPen(pal.color(QPalette::WindowText), 3);
        case PipelineGraphNode::Style::NonBlocking: break;
    }
    QPen p(nonBlockingColor(), 2);
    p.setStyle(Qt::DashLine);
    return p;
}

class NodeItem : public QGraphicsItem {
public:
    NodeItem(const PipelineGraphNode& node, QSizeF size, const QFont& font, const QPalette& palette)
        : node_(node), size_(size), font_(font), palette_(palette) {
        setToolTip(node.toolTip);
        setCursor(Qt::PointingHandCursor);
    }
    QRectF boundingRect() const override {
        return QRectF(-size_.width() / 2 - 4, -size_.height() / 2 - 4, size_.width() + 8, size_.height() + 8);
    }
    void setSelectedNode(bool on) {
        selected_ = on;
        update();
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        const QRectF r(-size_.width() / 2, -size_.height() / 2, size_.width(), size_.height());
        p->setRenderHint(QPainter::Antialiasing);
        QColor fill = node_.fill.isValid() ? node_.fill : palette_.color(QPalette::Base);
        // The selection's tint keeps the text readable: lighter under dark text, darker under light text.
        if (selected_)
            fill = isDarkPalette(palette_)
                       ? palette_.color(QPalette::Highlight).darker(node_.style == PipelineGraphNode::Style::Bottleneck ? 170 : 160)
                       : palette_.color(QPalette::Highlight).lighter(node_.style == PipelineGraphNode::Style::Bottleneck ? 170 : 160);
        p->setBrush(fill);
        p->setPen(nodePen(node_.style, palette_));
        p->drawRoundedRect(r, 4, 4);
        QFont bold = font_;
        bold.setBold(true);
        const QFontMetricsF fmBold(bold), fm(font_);
        // Text contrasts with the box's own fill (a heat fill can be light in the dark theme).
        const bool darkFill = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF() < 0.5;
        const bool paletteMatches = darkFill == isDarkPalette(palette_);
        const QColor plain = paletteMatches ? palette_.color(QPalette::Text) : (darkFill ? QColor(0xf0, 0xf0, 0xf0) : QColor(0x1a, 0x1a, 0x1a));
        const QColor text = node_.style == PipelineGraphNode::Style::NonBlocking && paletteMatches
                                ? palette_.color(QPalette::PlaceholderText)
                                : plain;
        double y = r.top() + kPadY;
        // The bottleneck's name in red: darker on a light background, lighter on a dark one.
        const QColor red = darkFill ? bottleneckColor().lighter(140) : bottleneckColor().darker(150);
        p->setPen(node_.style == PipelineGraphNode::Style::Bottleneck ? red : text);
        p->setFont(bold);
        p->drawText(QRectF(r.left() + kPadX, y, r.width() - 2 * kPadX, fmBold.height()), Qt::AlignHCenter | Qt::AlignVCenter,
                    node_.title);
        y += fmBold.height() + 2;
        p->setFont(font_);
        p->setPen(plain);
        for (const QString& line : node_.lines) {
            p->drawText(QRectF(r.left() + kPadX, y, r.width() - 2 * kPadX, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, line);
            y += fm.height();
        }
    }

private:
    PipelineGraphNode node_;
    QSizeF size_;
    QFont font_;
    QPalette palette_;
    bool selected_ = false;
};

QSizeF nodeSize(const PipelineGraphNode& n, const QFont& font) {
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fmBold(bold), fm(font);
    double w = fmBold.horizontalAdvance(n.title);
    for (const QString& l : n.lines) w = std::max(w, fm.horizontalAdvance(l));
    const double h = fmBold.height() + 2 + fm.height() * n.lines.size();
    return {std::ceil(w + 2 * kPadX + 2), std::ceil(h + 2 * kPadY)};
}

}  // namespace

PipelineGraphView::PipelineGraphView(QWidget* parent) : QGraphicsView(parent) {
    setScene(new QGraphicsScene(this));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    setFocusPolicy(Qt::StrongFocus);
}

void PipelineGraphView::setGraph(std::vector<PipelineGraphNode> nodes, std::vector<PipelineGraphEdge> edges) {
    nodes_ = std::move(nodes);
    edges_ = std::move(edges);
    selected_ = -1;
    rebuild();
    autoFit_ = true;
    fitToView();
}

void PipelineGraphView::rebuild() {
    QGraphicsScene* s = scene();
    s->clear();
    items_.clear();
    rects_.clear();
    if (nodes_.empty()) return;
    const QFont f = font();
    std::vector<QSizeF> sizes;
    for (const auto& n : nodes_) sizes.push_back(nodeSize(n, f));
    std::vector<std::pair<int, int>> pairs;
    for (const auto& e : edges_) pairs.emplace_back(e.from, e.to);
    const GraphLayout layout = layoutTopDown(sizes, pairs);
    byGraphviz_ = layout.byGraphviz;
    const QPalette pal = palette();
    for (size_t i = 0; i < edges_.size(); ++i) {
        const bool critical = edges_[i].critical;
        QPen pen = critical ? QPen(pal.color(QPalette::WindowText), 3) : QPen(nonBlockingColor(), 1.5);
        if (!critical) pen.setStyle(Qt::DashLine);
        s->addPath(layout.edgePaths[i], pen)->setZValue(0);
        // Arrow head at the producer end.
        const QPointF tip = layout.arrowTips[i], from = layout.arrowFrom[i];
        QLineF dir(tip, from);
        if (dir.length() < 1e-6) continue;
        dir.setLength(critical ? 12 : 10);
        QLineF left = dir, right = dir;
        left.setAngle(dir.angle() + 25);
        right.setAngle(dir.angle() - 25);
        QPolygonF head({tip, left.p2(), right.p2()});
        QPen headPen(pen.color(), 1);
        s->addPolygon(head, headPen, QBrush(pen.color()))->setZValue(0);
    }
    for (size_t i = 0; i < nodes_.size(); ++i) {
        auto* item = new NodeItem(nodes_[i], sizes[i], f, pal);
        item->setPos(layout.centers[i]);
        item->setZValue(1);
        item->setData(0, int(i));
        s->addItem(item);
        items_.push_back(item);
        rects_.push_back(QRectF(layout.centers[i] - QPointF(sizes[i].width() / 2, sizes[i].height() / 2), sizes[i]));
    }
    s->setSceneRect(layout.bounds.adjusted(-16, -16, 16, 16));
}

QRectF PipelineGraphView::nodeRect(int node) const {
    return node >= 0 && node < int(rects_.size()) ? rects_[size_t(node)] : QRectF();
}

void PipelineGraphView::setSelectedNode(int node) {
    if (selected_ >= 0 && selected_ < int(items_.size())) static_cast<NodeItem*>(items_[size_t(selected_)])->setSelectedNode(false);
    selected_ = node >= 0 && node < int(items_.size()) ? node : -1;
    if (selected_ >= 0) {
        static_cast<NodeItem*>(items_[size_t(selected_)])->setSelectedNode(true);
        ensureVisible(rects_[size_t(selected_)], 20, 20);
    }
}

void PipelineGraphView::setZoom(double z) {
    z = std::clamp(z, kMinZoom, kMaxZoom);
    if (std::abs(z - zoom_) < 1e-9) return;
    const double factor = z / zoom_;
    zoom_ = z;
    scale(factor, factor);
    emit zoomChanged(zoom_);
}

void PipelineGraphView::zoomIn() {
    autoFit_ = false;
    setZoom(zoom_ * 1.25);
}
void PipelineGraphView::zoomOut() {
    autoFit_ = false;
    setZoom(zoom_ / 1.25);
}
void PipelineGraphView::resetZoom() {
    autoFit_ = false;
    setZoom(1.0);
}

void PipelineGraphView::fitToView() {
    const QRectF scene = sceneRect();
    const QSize room = viewport()->size();
    if (nodes_.empty() || scene.isEmpty() || room.isEmpty()) return;
    // Below about 60 % box text gets too small to read: scrolling is better then.
    constexpr double kSmallestFit = 0.6;
    const double z = std::min({1.0, room.width() / scene.width(), room.height() / scene.height()});
    setZoom(std::max(z, kSmallestFit));
}

void PipelineGraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (autoFit_) fitToView();
}

void PipelineGraphView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        autoFit_ = false;
        setZoom(zoom_ * std::pow(1.15, steps));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void PipelineGraphView::mousePressEvent(QMouseEvent* event) {
    pressPos_ = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void PipelineGraphView::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || (event->position().toPoint() - pressPos_).manhattanLength() > 4) return;
    for (QGraphicsItem* item = itemAt(event->position().toPoint()); item; item = item->parentItem()) {
        const QVariant v = item->data(0);
        if (v.isValid()) {
            setSelectedNode(v.toInt());
            emit nodeClicked(v.toInt());
            return;
        }
    }
}

void PipelineGraphView::changeEvent(QEvent* event) {
    QGraphicsView::changeEvent(event);
    if (event->type() != QEvent::PaletteChange || nodes_.empty()) return;
    const int selected = selected_;
    rebuild();  // same layout, new colours; the zoom and scroll position stay
    if (selected >= 0 && selected < int(items_.size())) {
        selected_ = selected;
        static_cast<NodeItem*>(items_[size_t(selected)])->setSelectedNode(true);
    }
}

void PipelineGraphView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal) zoomIn();
    else if (event->key() == Qt::Key_Minus) zoomOut();
    else if (event->key() == Qt::Key_0) resetZoom();
    else QGraphicsView::keyPressEvent(event);
}

}  // namespace tracescope
