#include "views/palette_change.h"

#include <QApplication>
#include <QEvent>
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

void restyleOnPaletteChange(QWidget* widget, std::function<void()> restyle) {
    new PaletteChangeFilter(widget, std::move(restyle));
}

bool isDarkPalette(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

}  // namespace tracescope
