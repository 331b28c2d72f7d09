#include "views/wrapping_label.h"

#include <QEvent>
#include <QHash>

namespace tracescope {

WrappingLabel::WrappingLabel(QWidget* parent) : QLabel(parent) { setWordWrap(true); }

WrappingLabel::WrappingLabel(const QString& text, QWidget* parent) : QLabel(text, parent) { setWordWrap(true); }

int WrappingLabel::heightForWidth(int width) const {
    // QLabel::setText is not virtual: the text itself is part of the key (hashing a few hundred
    // characters costs far less than laying them out).
    const QString shown = text();
    const size_t hash = qHash(shown);
    for (const Known& k : known_)
        if (k.width == width && k.textSize == shown.size() && k.textHash == hash) return k.height;
    const int height = QLabel::heightForWidth(width);
    known_[nextSlot_] = {width, hash, shown.size(), height};
    nextSlot_ = (nextSlot_ + 1) % known_.size();
    return height;
}

void WrappingLabel::changeEvent(QEvent* event) {
    // A new font, style or margins give other heights for the same text.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange ||
        event->type() == QEvent::ContentsRectChange)
        known_.fill({});
    QLabel::changeEvent(event);
}

}  // namespace tracescope
