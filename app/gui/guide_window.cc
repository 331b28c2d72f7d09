#include "app/gui/guide_window.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QImage>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>

namespace tracescope {

namespace {

const QString kRoot = QStringLiteral("qrc:/guide/");

bool darkTheme(const QWidget& w) { return w.palette().color(QPalette::Base).lightness() < 128; }

}  // namespace

GuideBrowser::GuideBrowser(QWidget* parent) : QTextBrowser(parent) {
    setOpenExternalLinks(true);  // http links to the browser; chapters here
    setSearchPaths({QStringLiteral(":/guide")});
}

QVariant GuideBrowser::loadResource(int type, const QUrl& name) {
    if (type != QTextDocument::ImageResource) return QTextBrowser::loadResource(type, name);
    QUrl url = name;
    if (darkTheme(*this)) {
        QString path = url.path();
        path.replace(QLatin1String("-light.png"), QLatin1String("-dark.png"));
        url.setPath(path);
    }
    QVariant data = QTextBrowser::loadResource(type, url);
    if (!data.isValid() && url != name) data = QTextBrowser::loadResource(type, name);
    QImage image;
    if (data.canConvert<QImage>()) image = data.value<QImage>();
    else if (data.canConvert<QByteArray>()) image.loadFromData(data.toByteArray());
    if (image.isNull()) return data;
    // Screenshots are 1280 px wide: as wide as the page at most (minus the scroll bar).
    const int width = std::max(320, viewport()->width() - 24);
    if (image.width() > width) image = image.scaledToWidth(width, Qt::SmoothTransformation);
    return image;
}

bool GuideWindow::available() { return QFile::exists(QStringLiteral(":/guide/index.md")); }

GuideWindow::GuideWindow(QWidget* parent) : QDialog(parent), browser_(new GuideBrowser(this)) {
    setWindowTitle(tr("TraceScope User Guide"));
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    auto* back = new QPushButton(tr("Back"), this);
    auto* forward = new QPushButton(tr("Forward"), this);
    auto* contents = new QPushButton(tr("Contents"), this);
    back->setEnabled(false);
    forward->setEnabled(false);
    connect(back, &QPushButton::clicked, browser_, &QTextBrowser::backward);
    connect(forward, &QPushButton::clicked, browser_, &QTextBrowser::forward);
    connect(contents, &QPushButton::clicked, this, [this] { showChapter(); });
    connect(browser_, &QTextBrowser::backwardAvailable, back, &QWidget::setEnabled);
    connect(browser_, &QTextBrowser::forwardAvailable, forward, &QWidget::setEnabled);
    bar->addWidget(back);
    bar->addWidget(forward);
    bar->addWidget(contents);
    bar->addStretch(1);
    layout->addLayout(bar);
    layout->addWidget(browser_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(980, 760);
    showChapter();
}

void GuideWindow::showChapter(const QString& file) {
    browser_->setSource(QUrl(kRoot + (file.isEmpty() ? QStringLiteral("index.md") : file)),
                        QTextDocument::MarkdownResource);
}

}  // namespace tracescope
