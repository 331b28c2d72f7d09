#include "views/charts/pie_chart.h"

#include "views/charts/chart_palette.h"
#include "views/name_style.h"

#include <QChart>
#include <QEvent>
#include <QChartView>
#include <QLegendMarker>
#include <QPieSeries>
#include <QPieSlice>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace tracescope {

namespace {

// A remainder slice ("Other (12)") is drawn last, whatever its size.
bool isRemainder(const ChartSlice& e) { return e.folded > 0; }

QString remainderLabel(size_t folded) { return QObject::tr("Other (%1)").arg(folded); }

// Distinct categorical colours (neighbouring slices must not look alike); grey for the remainder.
QColor sliceColour(int i) {
    static const QRgb kPalette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                    0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0x2f4b7c};
    return QColor(kPalette[i % int(std::size(kPalette))]);
}

}  // namespace

std::vector<ChartSlice> pieSlices(std::vector<ChartSlice> entries, int maxSlices) {
    std::erase_if(entries, [](const ChartSlice& e) { return !(e.value > 0); });
    std::stable_sort(entries.begin(), entries.end(), [](const ChartSlice& a, const ChartSlice& b) {
        if (isRemainder(a) != isRemainder(b)) return isRemainder(b);
        return a.value > b.value;
    });
    maxSlices = std::max(1, maxSlices);
    if (int(entries.size()) > maxSlices) {
        // Keep maxSlices - 1 named slices so the total count, "Other" included, is maxSlices.
        // N counts every entry behind the slice, those the analysis had already folded too.
        ChartSlice other{{}, 0, 0};
        for (size_t i = size_t(maxSlices - 1); i < entries.size(); ++i) {
            other.value += entries[i].value;
            other.folded += std::max<size_t>(1, entries[i].folded);
        }
        entries.resize(size_t(maxSlices - 1));
        entries.push_back(other);
    }
    for (ChartSlice& e : entries)
        if (isRemainder(e)) e.label = remainderLabel(e.folded);
    return entries;
}

PieChart::PieChart(const QString& title, QWidget* parent) : QWidget(parent) {
    chart_ = new QChart;
    chart_->setTitle(title);
    chart_->legend()->setAlignment(Qt::AlignRight);
    chart_->legend()->setShowToolTips(true);
    QFont legendFont = chart_->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    chart_->legend()->setFont(legendFont);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chart_->setBackgroundRoundness(0);
    QFont titleFont = chart_->titleFont();
    titleFont.setBold(true);
    chart_->setTitleFont(titleFont);
    view_ = new QChartView(chart_, this);
    view_->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    setMinimumSize(320, 220);
    applyPaletteToChart(chart_, palette());
}

void PieChart::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) applyPaletteToChart(chart_, palette());
    QWidget::changeEvent(e);
}

void PieChart::setTitle(const QString& title) { chart_->setTitle(title); }

void PieChart::setEntries(std::vector<ChartSlice> entries, int maxSlices, std::function<QString(double)> formatValue) {
    chart_->removeAllSeries();
    std::vector<ChartSlice> slices = pieSlices(std::move(entries), maxSlices);
    double total = 0;
    for (const auto& e : slices) total += e.value;
    // Legend names: the short form of C++ / kernel names (View > Short Names), elided at the right.
    std::vector<std::string> fullNames;
    for (const auto& e : slices) fullNames.push_back(e.label.toStdString());
    const std::vector<std::string> shown = NameStyleSetting::instance().shortNames()
                                               ? shortNames(std::span<const std::string>(fullNames))
                                               : fullNames;
    auto* series = new QPieSeries;
    series->setPieSize(0.85);
    for (size_t i = 0; i < slices.size(); ++i) {
        const ChartSlice& e = slices[i];
        QPieSlice* slice = series->append(e.label, e.value);
        slice->setColor(isRemainder(e) ? QColor(0xbab0ac) : sliceColour(int(i)));
        slice->setBorderColor(Qt::white);
        double share = total > 0 ? 100.0 * e.value / total : 0;
        // Legend text: elided name + share; the full name and value are in the tooltip.
        const QString shownName = QString::fromStdString(shown[i]);
        QString name = shownName.size() > 38 ? shownName.left(37) + QStringLiteral("…") : shownName;
        slice->setLabel(QStringLiteral("%1  %2%").arg(name, QString::number(share, 'f', 1)));
        // Hovering shows the full name and value next to the slice.
        QString value = formatValue ? formatValue(e.value) : QString::number(e.value);
        slice->setProperty("hoverLabel", e.label + QStringLiteral(": ") + value);
        slice->setProperty("legendLabel", slice->label());
    }
    chart_->addSeries(series);
    connect(series, &QPieSeries::hovered, this, [](QPieSlice* slice, bool state) {
        slice->setExploded(state);
        slice->setLabel(slice->property(state ? "hoverLabel" : "legendLabel").toString());
        slice->setLabelVisible(state);
    });
    applyPaletteToChart(chart_, palette());  // the new slices' labels
}

int PieChart::sliceCount() const {
    const auto series = chart_->series();
    if (series.isEmpty()) return 0;
    return static_cast<QPieSeries*>(series.first())->count();
}

QStringList PieChart::sliceLabels() const {
    QStringList out;
    const auto series = chart_->series();
    if (series.isEmpty()) return out;
    for (QPieSlice* s : static_cast<QPieSeries*>(series.first())->slices()) out << s->label();
    return out;
}

}  // namespace tracescope
