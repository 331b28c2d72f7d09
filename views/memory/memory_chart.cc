#include "views/memory/memory_chart.h"

#include "model/analysis/memory_downsample.h"
#include "views/charts/chart_palette.h"
#include "views/memory/memory_runs_item.h"
#include "views/tables/value_format.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPen>
#include <QRubberBand>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

// How the page names and colours a stacked layer.
struct LayerStyle {
    QString name;
    QColor color;
};

LayerStyle styleOf(MemoryQuantity q, MemorySource source) {
    switch (q) {
    case MemoryQuantity::Stack: return {QObject::tr("Stack"), QColor(0xe0, 0x8e, 0x2b)};
    case MemoryQuantity::InUse: return {QObject::tr("Heap"), QColor(0x3b, 0x7d, 0xd8)};
    case MemoryQuantity::InUseAndFree: return {QObject::tr("Free"), QColor(0x9c, 0xc9, 0x8a)};
    case MemoryQuantity::Reserved: return {QObject::tr("Reserved"), QColor(0xa8, 0xc8, 0xef)};
    default:
        return {source == MemorySource::Counter || source == MemorySource::KinetoBytesOnly ? QObject::tr("In use")
                                                                                            : QObject::tr("Allocated"),
                QColor(0x3b, 0x7d, 0xd8)};
    }
}

double largest(const MemoryIdProfile& p, const std::vector<MemoryQuantity>& layers) {
    double m = 0;
    if (layers.empty()) return 1;
    for (const MemorySnapshot& s : p.timeline) m = std::max(m, memoryQuantity(layers.back(), s));
    return m;
}

const QColor kFragmentationColor(0xc0, 0x39, 0x2b);

}  // namespace

// The QChartView that turns mouse input into window changes, clicks and popups.
class MemoryChartView : public QChartView {
public:
    MemoryChartView(QChart* chart, MemoryChart* owner) : QChartView(chart, owner), owner_(owner) {
        setMouseTracking(true);
        setRubberBand(QChartView::NoRubberBand);
    }

protected:
    void mousePressEvent(QMouseEvent* e) override {
        if (e->button() == Qt::RightButton) {
            owner_->showAll();
            return;
        }
        if (e->button() != Qt::LeftButton) return;
        pressX_ = e->position().x();
        if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, this);
        band_->setGeometry(QRect(int(pressX_), int(plotTop()), 0, int(plotHeight())));
        band_->show();
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        const double x = e->position().x();
        if (band_ && band_->isVisible()) {
            band_->setGeometry(QRect(QPoint(int(std::min(x, pressX_)), int(plotTop())),
                                     QSize(int(std::abs(x - pressX_)), int(plotHeight()))));
            return;
        }
        if (!owner_->profile_ || !chart()->plotArea().contains(e->position())) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(e->globalPosition().toPoint(), owner_->hoverTextAt(owner_->timeAtViewX(x)), this);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        if (e->button() != Qt::LeftButton || !band_ || !band_->isVisible()) return;
        band_->hide();
        const double x = e->position().x();
        if (std::abs(x - pressX_) < 4) {
            if (chart()->plotArea().contains(e->position())) emit owner_->timeClicked(owner_->timeAtViewX(x));
            return;
        }
        const TimeNs a = owner_->timeAtViewX(std::min(x, pressX_));
        const TimeNs b = owner_->timeAtViewX(std::max(x, pressX_));
        if (b > a) owner_->setWindow(a, b);
    }
    void mouseDoubleClickEvent(QMouseEvent*) override { owner_->showAll(); }
    void wheelEvent(QWheelEvent* e) override {
        const double steps = e->angleDelta().y() / 120.0;
        if (steps == 0) return;
        const double factor = std::pow(0.8, steps);
        const TimeNs at = owner_->timeAtViewX(e->position().x());
        const double b = double(at) - double(at - owner_->begin_) * factor;
        const double en = double(at) + double(owner_->end_ - at) * factor;
        owner_->setWindow(TimeNs(std::llround(b)), TimeNs(std::llround(en)));
    }
    void leaveEvent(QEvent*) override { QToolTip::hideText(); }

private:
    MemoryChart* owner_;
    QRubberBand* band_ = nullptr;
    double pressX_ = 0;
    double plotTop() const { return chart()->plotArea().top(); }
    double plotHeight() const { return chart()->plotArea().height(); }
};

MemoryChart::MemoryChart(QWidget* parent) : QWidget(parent) {
    chart_ = new QChart;
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chart_->setBackgroundRoundness(0);
    view_ = new MemoryChartView(chart_, this);
    view_->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    setMinimumSize(400, 240);
    applyPaletteToChart(chart_, palette());
    runs_ = new MemoryRunsItem(chart_);
    // Above the grid and axis lines, below the series (the peak marker): Qt Charts' own
    // z-values are 2 for the grid, 3 for the axes and 4 for the series.
    runs_->setZValue(3.5);
    // The plot area's width decides the columns; it is known once the chart is laid out.
    connect(chart_, &QChart::plotAreaChanged, this, [this] { redrawRuns(); });
}

QChartView* MemoryChart::chartView() const { return view_; }

void MemoryChart::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) applyPaletteToChart(chart_, palette());
    QWidget::changeEvent(e);
}

void MemoryChart::setProfile(const MemoryIdProfile* profile, TimeNs traceStart, TimeNs traceEnd) {
    profile_ = profile && !profile->timeline.empty() ? profile : nullptr;
    traceStart_ = traceStart;
    traceEnd_ = std::max(traceEnd, traceStart + 1);
    buildSeries();
    showAll();
}

void MemoryChart::showAll() {
    if (!profile_) {
        begin_ = traceStart_;
        end_ = traceEnd_;
    } else {
        // The span of the memory events (a little margin), where the chart has something to say.
        const TimeNs first = profile_->timeline.front().time, last = profile_->timeline.back().time;
        const TimeNs margin = std::max<TimeNs>((last - first) / 50, 1000);
        begin_ = std::max(traceStart_, first - margin);
        end_ = std::min(std::max(traceEnd_, last), last + margin);
        if (end_ <= begin_) end_ = begin_ + 1;
    }
    rebuild();
    emit windowChanged();
}

void MemoryChart::setWindow(TimeNs begin, TimeNs end) {
    if (end - begin < 1000) {  // at most 1 µs wide
        const TimeNs mid = begin + (end - begin) / 2;
        begin = mid - 500;
        end = mid + 500;
    }
    begin_ = begin;
    end_ = end;
    rebuild();
    emit windowChanged();
}

TimeNs MemoryChart::timeAtViewX(double x) const {
    const QRectF plot = chart_->plotArea();
    if (plot.width() <= 0) return begin_;
    const double f = std::clamp((x - plot.left()) / plot.width(), 0.0, 1.0);
    return begin_ + TimeNs(std::llround(f * double(end_ - begin_)));
}

QString MemoryChart::hoverTextAt(TimeNs time) const {
    if (!profile_ || !hoverText_) return {};
    return hoverText_(memorySnapshotAt(*profile_, time));
}

void MemoryChart::buildSeries() {
    // No run drawing against the axes about to go (removing them may lay the chart out).
    x_ = y_ = nullptr;
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    layerColors_.clear();
    fragLine_ = nullptr;
    peak_ = nullptr;
    x_ = new QValueAxis;
    x_->setTitleText(tr("Time (ms)"));
    x_->setLabelFormat(QStringLiteral("%.1f"));
    y_ = new QValueAxis;
    y_->setLabelFormat(QStringLiteral("%.2f"));
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    frag_ = nullptr;
    if (!profile_) {
        y_->setTitleText(tr("Memory"));
        applyPaletteToChart(chart_, palette());
        return;
    }
    const std::vector<MemoryQuantity> layers = memoryChartLayers(*profile_, showFree_);
    const double top = std::max(largest(*profile_, layers), 1.0);
    unit_ = top >= 1024.0 * 1024 * 1024 ? 1024.0 * 1024 * 1024 : top >= 1024.0 * 1024 ? 1024.0 * 1024 : 1024.0;
    y_->setTitleText(unit_ >= 1024.0 * 1024 * 1024 ? tr("Memory (GiB)") : unit_ >= 1024.0 * 1024 ? tr("Memory (MiB)") : tr("Memory (KiB)"));
    y_->setRange(0, top / unit_ * 1.05);
    y_->applyNiceNumbers();
    for (MemoryQuantity q : layers) {
        const LayerStyle style = styleOf(q, profile_->source);
        auto* upper = new QLineSeries;
        auto* area = new QAreaSeries(upper);
        upper->setParent(area);
        area->setName(style.name);
        QColor fill = style.color;
        fill.setAlpha(200);
        area->setBrush(fill);
        area->setPen(QPen(style.color.darker(130), 1));
        chart_->addSeries(area);
        area->attachAxis(x_);
        area->attachAxis(y_);
        layerColors_.push_back(style.color);
    }
    if (profile_->hasFragmentation) {
        frag_ = new QValueAxis;
        frag_->setRange(0, 100);
        frag_->setTitleText(tr("Fragmentation (%)"));
        frag_->setLabelFormat(QStringLiteral("%.0f"));
        chart_->addAxis(frag_, Qt::AlignRight);
        fragLine_ = new QLineSeries;
        fragLine_->setName(tr("Fragmentation"));
        fragLine_->setPen(QPen(kFragmentationColor, 1.5));
        chart_->addSeries(fragLine_);
        fragLine_->attachAxis(x_);
        fragLine_->attachAxis(frag_);
    }
    peak_ = new QScatterSeries;
    peak_->setName(tr("Peak %1").arg(formatBytes(profile_->peakBytes)));
    peak_->setMarkerSize(9);
    peak_->setColor(QColor(0xc0, 0x39, 0x2b));
    peak_->setBorderColor(Qt::white);
    chart_->addSeries(peak_);
    peak_->attachAxis(x_);
    peak_->attachAxis(y_);
    applyPaletteToChart(chart_, palette());
}

void MemoryChart::rebuild() {
    if (!x_) return;
    const double x0 = double(begin_ - traceStart_) / 1e6, x1 = double(end_ - traceStart_) / 1e6;
    x_->setRange(x0, x1);
    // Ticks at round times (1, 2 or 5 x 10^k ms), about six across.
    const double raw = std::max((x1 - x0) / 6.0, 1e-6);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 2 ? mag : raw / mag < 5 ? 2 * mag : 5 * mag;
    x_->setTickType(QValueAxis::TicksDynamic);
    x_->setTickAnchor(0);
    x_->setTickInterval(step);
    const int decimals = std::clamp(int(-std::floor(std::log10(step))), 0, 6);
    x_->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
    redrawRuns();
    if (peak_) {
        peak_->clear();
        if (profile_->peakTimeNs >= begin_ && profile_->peakTimeNs <= end_)
            peak_->append(double(profile_->peakTimeNs - traceStart_) / 1e6, double(profile_->peakBytes) / unit_);
    }
}

void MemoryChart::redrawRuns() {
    runsDrawn_ = 0;
    columns_ = 0;
    const QRectF plot = chart_->plotArea();
    if (!profile_ || !x_ || plot.width() < 1) {
        runs_->clear();
        return;
    }
    columns_ = int(plot.width());
    std::vector<MemoryQuantity> quantities = memoryChartLayers(*profile_, showFree_);
    const size_t layerCount = quantities.size();
    if (fragLine_) quantities.push_back(MemoryQuantity::Fragmentation);
    std::vector<std::vector<CounterRun>> runs = memoryRuns(*profile_, quantities, begin_, end_, columns_);
    std::vector<MemoryRunsItem::Layer> layers;
    for (size_t k = 0; k < layerCount && k < layerColors_.size(); ++k) {
        QColor fill = layerColors_[k];
        fill.setAlpha(200);
        runsDrawn_ += runs[k].size();
        layers.push_back({fill, layerColors_[k].darker(130), std::move(runs[k])});
    }
    std::vector<CounterRun> fragmentation;
    if (fragLine_) {
        fragmentation = std::move(runs.back());
        runsDrawn_ += fragmentation.size();
    }
    runs_->setFrame(plot, y_->max() * unit_, std::move(layers), std::move(fragmentation), kFragmentationColor);
}

}  // namespace tracescope
