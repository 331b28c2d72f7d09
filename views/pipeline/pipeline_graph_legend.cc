#include "views/pipeline/pipeline_graph_legend.h"

#include <QPainter>

namespace tracescope {

namespace {

struct Entry {
    QString text;
    QColor color;
    double width;
    bool dashed;
};

std::vector<Entry> entries(const QPalette& pal) {
    return {
        {QObject::tr("Bottleneck: the blocking iterator with the most self time"), QColor(0xd3, 0x2f, 0x2f), 4, false},
        {QObject::tr("Critical path: the call waited for it"), pal.color(QPalette::WindowText), 3, false},
        {QObject::tr("Not blocking: it ran ahead (async)"), QColor(0x9e, 0x9e, 0x9e), 2, true},
    };
}

constexpr int kBox = 22, kGap = 8, kSpacing = 22;

}  // namespace

PipelineGraphLegend::PipelineGraphLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QSize PipelineGraphLegend::sizeHint() const {
    const QFontMetrics fm(font());
    int w = 0;
    for (const Entry& e : entries(palette())) w += kBox + kGap + fm.horizontalAdvance(e.text) + kSpacing;
    w += fm.horizontalAdvance(tr("Arrows: data flows up, from input to consumer"));
    return {w, std::max(kBox, fm.height()) + 8};
}

void PipelineGraphLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const int h = height();
    int x = 4;
    for (const Entry& e : entries(palette())) {
        QPen pen(e.color, e.width);
        if (e.dashed) pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.setBrush(palette().color(QPalette::Base));
        p.drawRoundedRect(QRectF(x + 2, (h - kBox) / 2.0 + 2, kBox - 4, kBox - 4), 3, 3);
        x += kBox + kGap;
        p.setPen(palette().color(QPalette::WindowText));
        const int tw = fm.horizontalAdvance(e.text);
        p.drawText(QRect(x, 0, tw + 2, h), Qt::AlignVCenter | Qt::AlignLeft, e.text);
        x += tw + kSpacing;
    }
    const QString arrows = tr("Arrows: data flows up, from input to consumer");
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(x, 0, fm.horizontalAdvance(arrows) + 2, h), Qt::AlignVCenter | Qt::AlignLeft, arrows);
}

}  // namespace tracescope
