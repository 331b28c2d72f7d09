// A word-wrapping QLabel that remembers the heights it was asked for. Qt's layouts ask a
// wrapping label's heightForWidth several times per pass (minimum, hint and total, for each
// enclosing layout), and QLabel lays its whole text out again on every call: on pages with
// long rich-text summaries that was most of the first show's stall. The answers are kept per
// (width, text, font, style) and so never go stale.
#pragma once

#include <QLabel>

#include <array>

namespace tracescope {

class WrappingLabel : public QLabel {
    Q_OBJECT
public:
    explicit WrappingLabel(QWidget* parent = nullptr);
    explicit WrappingLabel(const QString& text, QWidget* parent = nullptr);

    int heightForWidth(int width) const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Known {
        int width = -1;
        size_t textHash = 0;
        qsizetype textSize = -1;
        int height = 0;
    };
    mutable std::array<Known, 8> known_{};
    mutable size_t nextSlot_ = 0;
};

}  // namespace tracescope
