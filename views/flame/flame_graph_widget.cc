#include "views/flame/flame_graph_widget.h"

#include "views/tables/value_format.h"
#include "views/theme_colors.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cctype>
#include <functional>

namespace tracescope {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// A frame's hue by what it is: Python frames green, runtime calls red, the rest warm colours
// varied by name (as flamegraph.pl's default palette), so a name keeps its colour across views.
int hueOf(const CallNode& n) {
    if (n.python) return 95 + int(std::hash<std::string_view>()(n.name) % 40);
    const std::string_view s = n.name;
    const bool driverCall = s.size() > 2 && s.substr(0, 2) == "cu" && std::isupper(static_cast<unsigned char>(s[2]));
    if (s.substr(0, 4) == "cuda" || driverCall || s.substr(0, 3) == "hip") return 0;
    return 15 + int(std::hash<std::string_view>()(n.name) % 35);
}

QString valueText(CallMetric m, TimeNs v) { return m == CallMetric::Count ? formatCount(v) : formatDuration(v); }

}  // namespace

FlameGraphWidget::FlameGraphWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(kRowHeight * 3);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize FlameGraphWidget::sizeHint() const { return {600, int(std::max<uint32_t>(layout_.rows, 3)) * kRowHeight + 2}; }

void FlameGraphWidget::setTree(std::shared_ptr<const CallTree> tree) {
    tree_ = std::move(tree);
    focus_ = kCallRoot;
    relayout();
}

void FlameGraphWidget::setMetric(CallMetric metric) {
    metric_ = metric;
    relayout();
}

void FlameGraphWidget::setSearch(const QString& text) {
    search_ = text.trimmed().toStdString();
    relayout();
    emit searchMatched();
}

void FlameGraphWidget::setFocusNode(uint32_t node) {
    if (!tree_ || node >= tree_->nodes.size()) node = kCallRoot;
    if (node == focus_) return;
    focus_ = node;
    relayout();
    emit focusChanged(node);
}

QString FlameGraphWidget::matchSummary() const {
    if (search_.empty() || !tree_) return {};
    const double pct = layout_.focusValue > 0 ? 100.0 * double(layout_.matchedValue) / double(layout_.focusValue) : 0;
    return tr("Matched %1 (%2)").arg(valueText(metric_, layout_.matchedValue), formatPercent(pct));
}

QString FlameGraphWidget::frameText(uint32_t node) const {
    if (!tree_ || node >= tree_->nodes.size()) return {};
    const CallNode& n = tree_->nodes[node];
    const TimeNs all = tree_->width(kCallRoot, metric_);
    const TimeNs v = tree_->width(node, metric_);
    const double pct = all > 0 ? 100.0 * double(v) / double(all) : 0;
    QString text = QStringLiteral("<b>%1</b><br>").arg(qs(n.name).toHtmlEscaped());
    if (tree_->bottomUp) {
        text += tr("Self time routed through this caller chain: %1 (%2 of all)<br>")
                    .arg(formatDuration(n.totalNs), formatPercent(pct));
        if (n.deviceNs) text += tr("Device time: %1<br>").arg(formatDuration(n.deviceNs));
        text += tr("Slices: %1").arg(formatCount(qint64(n.totalCount)));
        return text;
    }
    text += tr("Wall: %1 &nbsp; Self: %2<br>").arg(formatDuration(n.totalNs), formatDuration(n.selfNs));
    text +=
        tr("Device time launched: %1 (itself: %2)<br>").arg(formatDuration(n.deviceNs), formatDuration(n.selfDeviceNs));
    text +=
        tr("Slices: %1 (at or under it: %2)<br>").arg(formatCount(qint64(n.count)), formatCount(qint64(n.totalCount)));
    text += tr("%1 of the whole (%2)").arg(formatPercent(pct), QString::fromLatin1(callMetricId(metric_)));
    return text;
}

void FlameGraphWidget::relayout() {
    FlameLayoutOptions o;
    o.metric = metric_;
    o.focus = focus_;
    o.width = std::max(1, width());
    o.search = search_;
    layout_ = tree_ ? layoutFlame(*tree_, o) : FlameLayout{};
    const int h = int(std::max<uint32_t>(layout_.rows, 3)) * kRowHeight + 2;
    if (h != height()) setFixedHeight(h);
    update();
}

void FlameGraphWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (tree_ && std::abs(layout_.rects.empty() ? 0.0 : double(width()) - layout_.rects.front().x1) > 0.5) relayout();
}

QColor FlameGraphWidget::colorOf(const FlameRect& r) const {
    const bool dark = isDarkPalette(palette());
    if (r.folded) return dark ? QColor(90, 90, 90) : QColor(200, 200, 200);
    const CallNode& n = tree_->nodes[r.node];
    const int hue = hueOf(n);
    QColor c = QColor::fromHsl(hue, dark ? 150 : 190, dark ? 95 : 165);
    if (!search_.empty()) {
        if (r.match) {
            c = dark ? QColor(200, 90, 220) : QColor(225, 120, 240);
        } else {
            c = dark ? c.darker(170) : c.lighter(125);
            c.setAlpha(120);
        }
    }
    if (r.ancestor) c.setAlpha(c.alpha() * 2 / 3);
    return c;
}

void FlameGraphWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!tree_) return;
    const bool dark = isDarkPalette(palette());
    const QColor textColor = dark ? QColor(235, 235, 235) : QColor(20, 20, 20);
    p.setFont(font());
    const QFontMetrics fm(font());
    for (const FlameRect& r : layout_.rects) {
        const QRectF box(r.x0, r.row * kRowHeight, std::max(1.0, r.x1 - r.x0 - 1), kRowHeight - 1);
        p.fillRect(box, colorOf(r));
        if (box.width() < 30) continue;  // room for a few letters
        const QString label = r.folded ? tr("%n frames", "", int(r.foldedCount)) : qs(tree_->nodes[r.node].name);
        p.setPen(textColor);
        p.drawText(box.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(label, Qt::ElideRight, int(box.width()) - 5));
    }
}

const FlameRect* FlameGraphWidget::rectAt(QPoint pos) const {
    if (pos.y() < 0) return nullptr;
    return flameRectAt(layout_, pos.x(), uint32_t(pos.y() / kRowHeight));
}

void FlameGraphWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    const FlameRect* r = rectAt(event->position().toPoint());
    if (!r || r->folded) return;
    // A click on the focus zooms out one level; elsewhere it zooms in (ancestors: back out).
    setFocusNode(r->node == focus_ ? tree_->nodes[r->node].parent : r->node);
}

void FlameGraphWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    const FlameRect* r = rectAt(event->position().toPoint());
    if (r && !r->folded && slicesShown_) emit frameActivated(r->node);
}

void FlameGraphWidget::contextMenuEvent(QContextMenuEvent* event) {
    const FlameRect* r = rectAt(event->pos());
    if (!r || r->folded || tree_->nodes[r->node].synthetic) return;
    const uint32_t node = r->node;
    QMenu menu(this);
    menu.addAction(tr("Zoom into this frame"), this, [this, node] { setFocusNode(node); });
    menu.addAction(tr("Pivot on this frame (callers and callees)"), this, [this, node] { emit pivotRequested(node); });
    if (slicesShown_)
        menu.addAction(tr("Show its slices in the timeline"), this, [this, node] { emit frameActivated(node); });
    menu.addAction(tr("Zoom out completely"), this, [this] { setFocusNode(kCallRoot); });
    menu.exec(event->globalPos());
}

bool FlameGraphWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const FlameRect* r = rectAt(help->pos());
        if (!r) {
            QToolTip::hideText();
        } else if (r->folded) {
            QToolTip::showText(help->globalPos(),
                               tr("%n narrow frames, %1 together: zoom in to see them", "", int(r->foldedCount))
                                   .arg(valueText(metric_, r->value)),
                               this);
        } else {
            QToolTip::showText(help->globalPos(), frameText(r->node), this);
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace tracescope
