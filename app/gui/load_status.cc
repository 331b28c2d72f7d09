#include "app/gui/load_status.h"

#include "app/gui/load_progress_list.h"
#include "app/gui/run_loader.h"
#include "app/gui/trace_loader.h"
#include "model/trace/trace.h"
#include "model/trace/import_warning.h"
#include "views/timeline/time_format.h"

#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QStringList>
#include <QTimer>
#include <QToolButton>
#include <QWidgetAction>

namespace tracescope {

namespace {

QString countText(size_t n) {
    if (n >= 10'000'000) return QString::number(double(n) / 1e6, 'f', 0) + QStringLiteral("M");
    if (n >= 1'000'000) return QString::number(double(n) / 1e6, 'f', 1) + QStringLiteral("M");
    if (n >= 10'000) return QString::number(double(n) / 1e3, 'f', 0) + QStringLiteral("k");
    return QString::number(n);
}

}  // namespace

LoadStatus::LoadStatus(QStatusBar* bar, TraceLoader* loader, RunLoader* runLoader)
    : QObject(bar), loader_(loader), runLoader_(runLoader) {
    fileLabel_ = new QLabel(bar);
    summaryLabel_ = new QLabel(bar);
    warningLabel_ = new QLabel(bar);
    warningLabel_->setTextFormat(Qt::RichText);
    warningLabel_->hide();
    connect(warningLabel_, &QLabel::linkActivated, this, &LoadStatus::warningsRequested);
    progress_ = new QProgressBar(bar);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(260);
    progress_->setTextVisible(true);
    cancel_ = new QPushButton(tr("Cancel"), bar);
    connect(cancel_, &QPushButton::clicked, loader_, &TraceLoader::cancel);
    connect(cancel_, &QPushButton::clicked, runLoader_, &RunLoader::cancel);
    // Several files loading: each file's share and state (a broken one marked) in a popup.
    filesButton_ = new QToolButton(bar);
    filesButton_->setText(tr("Files"));
    filesButton_->setToolTip(tr("Each file being loaded, its progress and state"));
    filesButton_->setPopupMode(QToolButton::InstantPopup);
    auto* filesMenu = new QMenu(filesButton_);
    fileList_ = new LoadProgressList(filesMenu);
    auto* listAction = new QWidgetAction(filesMenu);
    listAction->setDefaultWidget(fileList_);
    filesMenu->addAction(listAction);
    filesButton_->setMenu(filesMenu);
    connect(runLoader_, &RunLoader::fileStateChanged, this, &LoadStatus::updateFileList);
    bar->addWidget(fileLabel_);
    bar->addWidget(summaryLabel_, 1);
    bar->addPermanentWidget(warningLabel_);
    bar->addPermanentWidget(filesButton_);
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(cancel_);
    timer_ = new QTimer(this);
    timer_->setInterval(50);
    connect(timer_, &QTimer::timeout, this, [this] {
        const bool many = runLoader_->busy();
        if (many) updateFileList();
        const double f = many ? runLoader_->fraction() : loader_->fraction();
        if (f > 0) {
            progress_->setRange(0, 1000);
            progress_->setValue(int(f * 1000));
            progress_->setFormat(many ? QStringLiteral("%1 %2, %p%").arg(tr("Loading"), runLoader_->filesText())
                                      : QStringLiteral("%1 %p%").arg(tr("Loading")));
        }
        emit progressed(f);
    });
    stopLoading();
}

void LoadStatus::startLoading(const QString& what) {
    showText(tr("Loading %1 …").arg(what));
    progress_->setVisible(true);
    cancel_->setVisible(true);
    progress_->setRange(0, 0);  // busy until the importer reports bytes
    timer_->start();
}

void LoadStatus::showText(const QString& text) { fileLabel_->setText(text); }

void LoadStatus::stopLoading() {
    filesButton_->setVisible(false);
    progress_->setToolTip({});
    progress_->setVisible(false);
    cancel_->setVisible(false);
    timer_->stop();
}

void LoadStatus::showFixedProgress(double fraction) {
    timer_->stop();  // nothing is loading: the bar shows the part's share of the file
    progress_->setRange(0, 1000);
    progress_->setValue(int(fraction * 1000));
    progress_->setFormat(QStringLiteral("%1 %p%").arg(tr("Loading")));
}

void LoadStatus::updateFileList() {
    const std::vector<FileLoadState> states = runLoader_->fileStates();
    fileList_->setStates(states);
    QStringList lines;
    for (const FileLoadState& f : states) lines << LoadProgressList::lineOf(f).toHtmlEscaped();
    progress_->setToolTip(lines.join(QStringLiteral("<br>")));
    filesButton_->setVisible(runLoader_->busy() && states.size() > 1);
}

void LoadStatus::setFileText(const QString& html) { fileLabel_->setText(html); }

void LoadStatus::clearSummary() {
    summaryLabel_->clear();
    warningLabel_->hide();
}

void LoadStatus::showTrace(const Trace* trace, const QString& path) {
    // Import warnings stay visible, not a transient message: a status-bar link that lists them
    // (the list also in its tooltip).
    QStringList warnings;
    if (trace)
        for (const ImportWarning& w : trace->warnings)
            warnings << QString::fromStdString(warningText(w)).toHtmlEscaped();
    warningLabel_->setVisible(!warnings.isEmpty());
    warningLabel_->setText(
        QStringLiteral("<a href=\"warnings\">%1</a>").arg(tr("⚠ %n import warning(s)", nullptr, int(warnings.size()))));
    warningLabel_->setToolTip(warnings.join(QStringLiteral("<br>")));
    if (!trace) {
        fileLabel_->clear();
        summaryLabel_->clear();
        return;
    }
    const TraceCounts c = trace->counts();
    fileLabel_->setText(QStringLiteral("<b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    fileLabel_->setToolTip(path);
    QStringList parts;
    parts << tr("span %1").arg(formatDuration(trace->spanNs()));
    parts << tr("%1 processes, %2 tracks").arg(c.processes).arg(c.tracks);
    parts << tr("%1 slices").arg(countText(c.slices));
    if (c.asyncSlices) parts << tr("%1 async").arg(countText(c.asyncSlices));
    if (c.instants) parts << tr("%1 instants").arg(countText(c.instants));
    if (c.counterTracks) parts << tr("%1 counters (%2 samples)").arg(c.counterTracks).arg(countText(c.counterSamples));
    if (c.flows) parts << tr("%1 flows").arg(countText(c.flows));
    parts << QString::fromStdString(trace->format);
    summaryLabel_->setText(parts.join(QStringLiteral("  ·  ")));
}

}  // namespace tracescope
