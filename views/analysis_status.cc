#include "views/analysis_status.h"

#include "views/wrapping_label.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tracescope {

AnalysisStatus::AnalysisStatus(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    text_ = new WrappingLabel(this);
    text_->setAlignment(Qt::AlignCenter);
    QFont f = text_->font();
    f.setPointSizeF(f.pointSizeF() * 1.2);
    text_->setFont(f);
    layout->addWidget(text_);
    bar_ = new QProgressBar(this);
    bar_->setRange(0, 1000);
    bar_->setTextVisible(false);
    bar_->setFixedWidth(320);
    layout->addWidget(bar_, 0, Qt::AlignHCenter);
    button_ = new QPushButton(this);
    layout->addWidget(button_, 0, Qt::AlignHCenter);
    layout->addStretch(1);
    connect(button_, &QPushButton::clicked, this, [this] {
        // The callback may show another state (and replace onClick_): call a copy.
        if (std::function<void()> f = onClick_) f();
    });
    showMessage(QString());
}

void AnalysisStatus::showMessage(const QString& text) {
    text_->setText(text);
    bar_->hide();
    setButton(QString(), nullptr);
}

void AnalysisStatus::showProgress(const QString& text, double fraction, std::function<void()> cancel) {
    text_->setText(text);
    bar_->setValue(int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    bar_->show();
    setButton(tr("Cancel"), std::move(cancel));
}

void AnalysisStatus::showAction(const QString& text, const QString& action, std::function<void()> onClick) {
    text_->setText(text);
    bar_->hide();
    setButton(action, std::move(onClick));
}

QString AnalysisStatus::text() const { return text_->text(); }

QPushButton* AnalysisStatus::button() const { return button_->isHidden() ? nullptr : button_; }

void AnalysisStatus::setButton(const QString& label, std::function<void()> onClick) {
    onClick_ = std::move(onClick);
    button_->setText(label);
    button_->setVisible(bool(onClick_));
}

}  // namespace tracescope
