#include "views/theme_colors.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QPalette>
#include <QWidget>

namespace tracescope {

namespace {

// Watches the application object: QApplication::setPalette sends it ApplicationPaletteChange.
class PaletteChangeFilter : public QObject {
public:
    PaletteChangeFilter(QWidget* owner, std::function<void()> restyle) : QObject(owner), restyle_(std::move(restyle)) {
        qApp->installEventFilter(this);
    }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange) restyle_();
        return false;
    }

private:
    std::function<void()> restyle_;
};

}  // namespace

bool isDarkPalette(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

void restyleOnPaletteChange(QWidget* widget, std::function<void()> restyle) {
    new PaletteChangeFilter(widget, std::move(restyle));
}

QColor toneColor(TextTone tone, const QPalette& palette) {
    // Material Design's red 800 / green 900 / a dark grey on light backgrounds; on dark ones
    // lighter shades (red A100, green 400, grey 500), as the dark ones fall to about 2.5:1 there.
    const bool dark = isDarkPalette(palette);
    switch (tone) {
    case TextTone::Error: return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28);
    case TextTone::Success: return dark ? QColor(0x66, 0xbb, 0x6a) : QColor(0x1b, 0x5e, 0x20);
    case TextTone::Muted: break;
    }
    return dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x66, 0x66, 0x66);
}

void setLabelTone(QLabel* label, TextTone tone) {
    auto apply = [label, tone] {
        label->setStyleSheet(QStringLiteral("color: %1;").arg(toneColor(tone, QApplication::palette()).name()));
    };
    apply();
    restyleOnPaletteChange(label, apply);
}

}  // namespace tracescope
