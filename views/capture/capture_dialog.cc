#include "views/capture/capture_dialog.h"

#include "views/capture/capture_runner.h"
#include "views/tables/value_format.h"
#include "views/theme_colors.h"
#include "views/wrapping_label.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <chrono>

namespace tracescope {

namespace {

constexpr int kHistorySize = 10;
const char* const kHistoryKey = "capture/addresses";

enum WorkerColumn { ServerColumn, StateColumn, AttemptColumn, TimeColumn, DetailsColumn, ColumnCount };

int64_t steadyNowMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

QString q(const std::string& s) { return QString::fromStdString(s); }

QString stateText(capture::WorkerState s) {
    switch (s) {
        case capture::WorkerState::Waiting: return QObject::tr("waiting");
        case capture::WorkerState::Connecting: return QObject::tr("connecting");
        case capture::WorkerState::Profiling: return QObject::tr("profiling");
        case capture::WorkerState::Receiving: return QObject::tr("receiving");
        case capture::WorkerState::Saved: return QObject::tr("saved");
        case capture::WorkerState::Failed: return QObject::tr("failed");
        case capture::WorkerState::Cancelled: return QObject::tr("cancelled");
    }
    return {};
}

QColor stateColour(capture::WorkerState s, const QPalette& palette) {
    switch (s) {
        case capture::WorkerState::Saved: return toneColor(TextTone::Success, palette);
        case capture::WorkerState::Failed: return toneColor(TextTone::Error, palette);
        case capture::WorkerState::Cancelled: return toneColor(TextTone::Muted, palette);
        default: return QColor();
    }
}

QComboBox* levelBox(const QStringList& labels) {
    auto* box = new QComboBox;
    for (int i = 0; i < labels.size(); ++i) box->addItem(labels[i], i);
    return box;
}

QSpinBox* spinBox(int min, int max, const QString& suffix) {
    auto* s = new QSpinBox;
    s->setRange(min, max);
    s->setSuffix(suffix);
    s->setGroupSeparatorShown(true);
    return s;
}

QString defaultLogdir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/captures");
}

}  // namespace

CaptureDialog::CaptureDialog(QWidget* parent) : QDialog(parent), runner_(new CaptureRunner(this)) {
    setWindowTitle(tr("Capture Profile"));
    setMinimumWidth(720);

    addresses_ = new QComboBox;
    addresses_->setEditable(true);
    addresses_->setInsertPolicy(QComboBox::NoInsert);
    addresses_->lineEdit()->setPlaceholderText(tr("localhost:9999, worker-1:9999, [::1]:9999"));
    addresses_->setToolTip(tr("Profiler servers started with jax.profiler.start_server(port) or "
                              "tf.profiler.experimental.server.start(port); several, comma-separated, "
                              "are captured together"));
    durationMs_ = spinBox(1, 3600 * 1000, tr(" ms"));
    durationMs_->setObjectName(QStringLiteral("durationMs"));
    retries_ = spinBox(0, 20, {});
    retries_->setToolTip(tr("Further attempts when the server is busy or the trace comes back empty"));
    hostLevel_ = levelBox({tr("0 — off"), tr("1 — user annotations only"), tr("2 — + high-level execution"),
                           tr("3 — verbose")});
    deviceLevel_ = levelBox({tr("0 — off"), tr("1 — on (GPU kernels, copies)")});
    pythonLevel_ = levelBox({tr("0 — off"), tr("1 — on (Python calls)")});
    delayMs_ = spinBox(0, 3600 * 1000, tr(" ms"));
    delayMs_->setToolTip(tr("All servers start tracing at the same moment, this long after Capture"));
    logdir_ = new QLineEdit;
    logdir_->setObjectName(QStringLiteral("logdir"));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Log directory"), logdir_->text());
        if (!dir.isEmpty()) logdir_->setText(dir);
    });
    auto* logdirRow = new QHBoxLayout;
    logdirRow->addWidget(logdir_, 1);
    logdirRow->addWidget(browse);
    openWhenDone_ = new QCheckBox(tr("Open the capture when done"));

    auto* form = new QFormLayout;
    form->addRow(tr("Profiler server(s):"), addresses_);
    auto* timing = new QHBoxLayout;
    timing->addWidget(durationMs_);
    timing->addSpacing(16);
    timing->addWidget(new QLabel(tr("Delay:")));
    timing->addWidget(delayMs_);
    timing->addSpacing(16);
    timing->addWidget(new QLabel(tr("Retries:")));
    timing->addWidget(retries_);
    timing->addStretch(1);
    form->addRow(tr("Duration:"), timing);
    form->addRow(tr("Host tracer level:"), hostLevel_);
    form->addRow(tr("Device tracer level:"), deviceLevel_);
    form->addRow(tr("Python tracer level:"), pythonLevel_);
    form->addRow(tr("Log directory:"), logdirRow);
    form->addRow(QString(), openWhenDone_);

    formError_ = new WrappingLabel;
    setLabelTone(formError_, TextTone::Error);
    formError_->hide();

    workers_ = new QTableWidget(0, ColumnCount);
    workers_->setHorizontalHeaderLabels({tr("Server"), tr("State"), tr("Attempt"), tr("Time"), tr("Details")});
    workers_->verticalHeader()->hide();
    workers_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    workers_->setSelectionMode(QAbstractItemView::NoSelection);
    // Short columns fit their text (a "1.20 s of 2.00 s" must not be cut); Details takes the rest.
    for (int c = ServerColumn; c < DetailsColumn; ++c)
        workers_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    workers_->horizontalHeader()->setSectionResizeMode(DetailsColumn, QHeaderView::Stretch);
    workers_->setWordWrap(true);
    workers_->setMinimumHeight(120);
    summary_ = new WrappingLabel;
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    captureButton_ = new QPushButton(tr("&Capture"));
    captureButton_->setDefault(true);
    stopButton_ = new QPushButton(tr("&Stop early"));
    stopButton_->setToolTip(tr("End tracing now on every server and keep what was traced so far"));
    cancelButton_ = new QPushButton(tr("C&ancel capture"));
    cancelButton_->setToolTip(tr("Abort at once; nothing is saved"));
    closeButton_ = new QPushButton(tr("Close"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(stopButton_);
    buttons->addWidget(cancelButton_);
    buttons->addStretch(1);
    buttons->addWidget(captureButton_);
    buttons->addWidget(closeButton_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(formError_);
    layout->addWidget(workers_, 1);
    layout->addWidget(summary_);
    layout->addLayout(buttons);

    clock_ = new QTimer(this);
    clock_->setInterval(250);
    connect(clock_, &QTimer::timeout, this, &CaptureDialog::refreshTimes);
    connect(captureButton_, &QPushButton::clicked, this, &CaptureDialog::startCapture);
    connect(stopButton_, &QPushButton::clicked, this, &CaptureDialog::stopCapture);
    connect(cancelButton_, &QPushButton::clicked, this, &CaptureDialog::cancelCapture);
    connect(closeButton_, &QPushButton::clicked, this, &CaptureDialog::reject);
    connect(runner_, &CaptureRunner::workerChanged, this, &CaptureDialog::showWorker);
    connect(runner_, &CaptureRunner::finished, this, &CaptureDialog::finish);

    loadSettings();
    setRunning(false);
}

CaptureDialog::~CaptureDialog() = default;

bool CaptureDialog::running() const { return runner_->running(); }

void CaptureDialog::setAddresses(const QString& text) { addresses_->setCurrentText(text); }

bool CaptureDialog::readOptions(capture::CaptureOptions& out, QString& error) const {
    std::string parseError;
    if (!capture::parseServerAddresses(addresses_->currentText().toStdString(), out.servers, parseError)) {
        error = q(parseError);
        return false;
    }
    if (out.servers.empty()) {
        error = tr("Enter the address of a profiler server, e.g. localhost:9999.");
        return false;
    }
    if (logdir_->text().trimmed().isEmpty()) {
        error = tr("Choose a log directory for the capture.");
        return false;
    }
    out.durationMs = uint64_t(durationMs_->value());
    out.retries = retries_->value();
    out.hostTracerLevel = uint32_t(hostLevel_->currentData().toInt());
    out.deviceTracerLevel = uint32_t(deviceLevel_->currentData().toInt());
    out.pythonTracerLevel = uint32_t(pythonLevel_->currentData().toInt());
    out.delayMs = uint64_t(delayMs_->value());
    out.logdir = QDir::cleanPath(logdir_->text().trimmed()).toStdString();
    return true;
}

void CaptureDialog::startCapture() {
    if (running()) return;
    capture::CaptureOptions options;
    QString error;
    if (!readOptions(options, error)) {
        formError_->setText(error);
        formError_->show();
        return;
    }
    formError_->hide();
    saveSettings();
    runningDurationMs_ = options.durationMs;
    runningDelayMs_ = options.delayMs;
    runningLogdir_ = QString::fromStdString(options.logdir);
    status_.assign(options.servers.size(), {});
    workers_->setRowCount(int(options.servers.size()));
    for (size_t i = 0; i < options.servers.size(); ++i) {
        status_[i].server = options.servers[i];
        for (int c = 0; c < ColumnCount; ++c) workers_->setItem(int(i), c, new QTableWidgetItem);
        showWorker(int(i), status_[i]);
    }
    summary_->setText(tr("Capturing %n server(s)…", nullptr, int(options.servers.size())));
    runner_->start(std::move(options));
    setRunning(true);
}

void CaptureDialog::stopCapture() {
    if (!running()) return;
    runner_->stop();
    summary_->setText(tr("Stopping: the servers end tracing and send what they have…"));
}

void CaptureDialog::cancelCapture() {
    if (!running()) return;
    runner_->cancel();
    summary_->setText(tr("Cancelling…"));
}

void CaptureDialog::reject() {
    if (running()) {
        cancelCapture();
        return;  // closes once the capture has ended (see finish)
    }
    QDialog::reject();
}

void CaptureDialog::setRunning(bool running) {
    for (QWidget* w : std::initializer_list<QWidget*>{addresses_, durationMs_, retries_, hostLevel_, deviceLevel_,
                                                       pythonLevel_, delayMs_, logdir_, openWhenDone_})
        w->setEnabled(!running);
    captureButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
    cancelButton_->setEnabled(running);
    closeButton_->setEnabled(!running);
    if (running) clock_->start();
    else clock_->stop();
}

void CaptureDialog::changeEvent(QEvent* event) {
    QDialog::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    for (size_t i = 0; i < status_.size(); ++i) {
        const capture::WorkerStatus status = status_[i];
        showWorker(int(i), status);
    }
}

void CaptureDialog::showWorker(int index, const capture::WorkerStatus& status) {
    if (index < 0 || size_t(index) >= status_.size()) return;
    status_[size_t(index)] = status;
    const QString server = q(status.server.target());
    workers_->item(index, ServerColumn)->setText(server);
    QTableWidgetItem* state = workers_->item(index, StateColumn);
    state->setText(stateText(status.state));
    const QColor colour = stateColour(status.state, palette());
    if (colour.isValid()) state->setForeground(colour);
    else state->setData(Qt::ForegroundRole, QVariant());  // the palette's own text colour
    workers_->item(index, AttemptColumn)->setText(status.attempt > 0 ? QString::number(status.attempt) : QString());
    QString details = q(status.message);
    if (!status.savedPath.empty()) details = details.isEmpty() ? q(status.savedPath) : q(status.savedPath) + "\n" + details;
    if (!status.serverPath.empty()) details += (details.isEmpty() ? "" : "\n") + tr("On the server: %1").arg(q(status.serverPath));
    workers_->item(index, DetailsColumn)->setText(details);
    workers_->item(index, DetailsColumn)->setToolTip(details);
    refreshTimes();
    workers_->resizeRowsToContents();
}

// Profiling workers show where they are: waiting for the delay, tracing (elapsed of the
// duration), then collecting (the server serializes after tracing; seconds on big captures).
void CaptureDialog::refreshTimes() {
    const int64_t now = steadyNowMs();
    for (size_t i = 0; i < status_.size(); ++i) {
        const capture::WorkerStatus& s = status_[i];
        QString text;
        if (s.state == capture::WorkerState::Profiling && s.profilingSinceMs > 0) {
            const int64_t elapsed = now - s.profilingSinceMs;
            const int64_t delay = int64_t(runningDelayMs_), duration = int64_t(runningDurationMs_);
            auto ms = [](int64_t v) { return formatDuration(v * 1000000); };
            if (elapsed < delay) text = tr("starts in %1").arg(ms(delay - elapsed));
            else if (elapsed < delay + duration) text = tr("%1 of %2").arg(ms(elapsed - delay), ms(duration));
            else text = tr("collecting (%1)").arg(ms(elapsed - delay - duration));
        }
        if (QTableWidgetItem* item = workers_->item(int(i), TimeColumn)) item->setText(text);
    }
}

void CaptureDialog::finish(const capture::CaptureResult& result) {
    for (size_t i = 0; i < result.workers.size(); ++i) showWorker(int(i), result.workers[i]);
    setRunning(false);
    const auto files = result.savedFiles();
    const size_t total = result.workers.size();
    if (!files.empty())
        summary_->setText(tr("Saved %1 of %2 server(s) to <b>%3</b>")
                              .arg(files.size())
                              .arg(total)
                              .arg(q(result.runDir).toHtmlEscaped()));
    else
        summary_->setText(tr("Nothing was saved: see each server's details above."));
    emit captureFinished(result);
    if (!files.empty() && openWhenDone_->isChecked()) emit openRequested(runningLogdir_, q(result.runDir));
}

void CaptureDialog::loadSettings() {
    QSettings s;
    addresses_->addItems(s.value(kHistoryKey).toStringList());
    addresses_->setCurrentIndex(addresses_->count() ? 0 : -1);
    // TensorBoard's dialog defaults: 1 s, 3 retries, levels 2 / 1 / 0, no delay.
    durationMs_->setValue(s.value("capture/durationMs", 1000).toInt());
    retries_->setValue(s.value("capture/retries", 3).toInt());
    hostLevel_->setCurrentIndex(s.value("capture/hostLevel", 2).toInt());
    deviceLevel_->setCurrentIndex(s.value("capture/deviceLevel", 1).toInt());
    pythonLevel_->setCurrentIndex(s.value("capture/pythonLevel", 0).toInt());
    delayMs_->setValue(s.value("capture/delayMs", 0).toInt());
    logdir_->setText(s.value("capture/logdir", defaultLogdir()).toString());
    openWhenDone_->setChecked(s.value("capture/openWhenDone", true).toBool());
}

void CaptureDialog::saveSettings() const {
    QSettings s;
    QStringList history = s.value(kHistoryKey).toStringList();
    const QString current = addresses_->currentText().trimmed();
    history.removeAll(current);
    history.prepend(current);
    while (history.size() > kHistorySize) history.removeLast();
    s.setValue(kHistoryKey, history);
    s.setValue("capture/durationMs", durationMs_->value());
    s.setValue("capture/retries", retries_->value());
    s.setValue("capture/hostLevel", hostLevel_->currentIndex());
    s.setValue("capture/deviceLevel", deviceLevel_->currentIndex());
    s.setValue("capture/pythonLevel", pythonLevel_->currentIndex());
    s.setValue("capture/delayMs", delayMs_->value());
    s.setValue("capture/logdir", logdir_->text());
    s.setValue("capture/openWhenDone", openWhenDone_->isChecked());
}

}  // namespace tracescope
