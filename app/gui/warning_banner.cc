#include "app/gui/warning_banner.h"

#include "model/trace/partial_trace.h"
#include "views/theme_colors.h"
#include "views/wrapping_label.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>

namespace tracescope {

WarningBanner::WarningBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("WarningBanner"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 8, 6);
    layout->setSpacing(10);
    auto* icon = new QLabel(this);
    const int size = fontMetrics().height() + 4;
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    icon->setAlignment(Qt::AlignTop);
    layout->addWidget(icon);
    text_ = new WrappingLabel(this);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(text_, 1);
    button_ = new QPushButton(tr("Show import warnings…"), this);
    button_->setToolTip(tr("Every warning the importer gave for this file"));
    layout->addWidget(button_, 0, Qt::AlignVCenter);
    connect(button_, &QPushButton::clicked, this, &WarningBanner::warningsRequested);
    applyColors();
    restyleOnPaletteChange(this, [this] { applyColors(); });  // View > Theme switches live
    hide();
}

void WarningBanner::setTrace(const Trace* trace) {
    const std::string banner = trace ? partialTraceBanner(*trace) : std::string();
    text_->setText(QString::fromStdString(banner));
    setVisible(!banner.empty());
}

QString WarningBanner::text() const { return text_->text(); }

void WarningBanner::applyColors() {
    // Amber on light palettes, a dark amber on dark ones.
    const bool dark = isDarkPalette(QApplication::palette());
    const char* sheet = dark ? "QFrame#WarningBanner { background: #4a3800; border-bottom: 1px solid #8a6a00; }"
                               "QFrame#WarningBanner QLabel { color: #ffe9a8; }"
                             : "QFrame#WarningBanner { background: #fff3cd; border-bottom: 1px solid #e6c866; }"
                               "QFrame#WarningBanner QLabel { color: #4d3800; }";
    setStyleSheet(QString::fromLatin1(sheet));
}

void showImportWarnings(QWidget* parent, const Trace& trace) {
    QString list;
    for (const ImportWarning& w : trace.warnings)
        list += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(warningText(w)).toHtmlEscaped());
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("Import warnings"),
                                QObject::tr("<b>%n import warning(s)</b> for this trace:", nullptr,
                                            int(trace.warnings.size())),
                                QMessageBox::Close, parent);
    box->setInformativeText(QStringLiteral("<ul>%1</ul>").arg(list));
    // Warnings are sentences with byte offsets: give them room rather than a narrow column.
    box->setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 560px; }"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace tracescope
