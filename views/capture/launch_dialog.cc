#include "views/capture/launch_dialog.h"

#include "views/capture/launch_runner.h"
#include "views/theme_colors.h"
#include "views/wrapping_label.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTextCursor>
#include <QTimer>
#include <QVBoxLayout>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString defaultLogdir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/captures");
}

QWidget* withBrowse(QLineEdit* edit, QWidget* parent, bool folder) {
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    auto* browse = new QPushButton(QObject::tr("Browse…"), row);
    QObject::connect(browse, &QPushButton::clicked, parent, [edit, parent, folder] {
        const QString picked = folder ? QFileDialog::getExistingDirectory(parent, QString(), edit->text())
                                      : QFileDialog::getOpenFileName(parent, QString(), edit->text());
        if (!picked.isEmpty()) edit->setText(folder ? picked : QProcess::splitCommand(picked).join(' '));
    });
    h->addWidget(browse);
    return row;
}

}  // namespace

LaunchDialog::LaunchDialog(QWidget* parent) : QDialog(parent), runner_(new LaunchRunner(this)) {
    setWindowTitle(tr("Launch & Capture"));
    auto* form = new QFormLayout;
    command_ = new QLineEdit(this);
    command_->setPlaceholderText(tr("program and arguments, e.g. python train.py --steps 20"));
    form->addRow(tr("Command:"), withBrowse(command_, this, false));
    workingDir_ = new QLineEdit(this);
    workingDir_->setPlaceholderText(tr("the current folder"));
    form->addRow(tr("Working folder:"), withBrowse(workingDir_, this, true));
    environment_ = new QPlainTextEdit(this);
    environment_->setPlaceholderText(tr("NAME=VALUE, one per line (added to the environment)"));
    environment_->setMaximumHeight(70);
    form->addRow(tr("Environment:"), environment_);

    auto* kinds = new QWidget(this);
    auto* kh = new QHBoxLayout(kinds);
    kh->setContentsMargins(0, 0, 0, 0);
    auto* always = new QLabel(tr("kernels, copies, memsets, CUDA runtime API +"), kinds);
    kh->addWidget(always);
    sync_ = new QCheckBox(tr("synchronization"), kinds);
    nvtx_ = new QCheckBox(tr("NVTX"), kinds);
    memory_ = new QCheckBox(tr("memory"), kinds);
    driver_ = new QCheckBox(tr("driver API"), kinds);
    for (QCheckBox* c : {sync_, nvtx_, memory_, driver_}) kh->addWidget(c);
    kh->addStretch(1);
    form->addRow(tr("Record:"), kinds);
    earlyNvtx_ = new QCheckBox(tr("Record NVTX even where the environment names another NVTX tool"), this);
    earlyNvtx_->setToolTip(tr("The agent is NVTX's tool (NVTX_INJECTION64_PATH) from the program's first NVTX call, "
                              "also before CUDA starts, unless the environment names another tool: this makes it "
                              "the tool anyway and preloads it (LD_PRELOAD)"));
    form->addRow(tr("Early NVTX:"), earlyNvtx_);
    connect(nvtx_, &QCheckBox::toggled, earlyNvtx_, [this](bool on) { earlyNvtx_->setEnabled(on && !running()); });

    durationMs_ = new QSpinBox(this);
    durationMs_->setRange(0, 24 * 3600 * 1000);
    durationMs_->setSingleStep(1000);
    durationMs_->setSuffix(tr(" ms"));
    durationMs_->setSpecialValueText(tr("until the program exits (or Stop)"));
    durationMs_->setGroupSeparatorShown(true);
    // As wide as its longest text, not the whole row.
    durationMs_->setMaximumWidth(durationMs_->sizeHint().width() + fontMetrics().averageCharWidth() * 4);
    form->addRow(tr("Capture window:"), durationMs_);
    logdir_ = new QLineEdit(this);
    form->addRow(tr("Log folder:"), withBrowse(logdir_, this, true));
    openWhenDone_ = new QCheckBox(tr("Open the capture when done"), this);
    form->addRow(QString(), openWhenDone_);

    formError_ = new WrappingLabel(this);
    setLabelTone(formError_, TextTone::Error);
    formError_->hide();
    status_ = new WrappingLabel(tr("The program runs with our CUPTI agent injected (CUDA_INJECTION64_PATH); each CUDA "
                            "process is saved as <host>.<pid>.xplane.pb in a TensorBoard run folder."),
                         this);
    status_->setTextFormat(Qt::PlainText);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    output_ = new QPlainTextEdit(this);
    output_->setReadOnly(true);
    output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    output_->setMaximumBlockCount(20000);  // the pane's lines; the saved file keeps more
    output_->setPlaceholderText(tr("The program's output (stdout and stderr) shows here; it is saved with the "
                                   "capture as program_output.txt."));
    output_->setMinimumHeight(90);

    startButton_ = new QPushButton(tr("&Start"), this);
    startButton_->setDefault(true);
    startButton_->setToolTip(tr("Launch the program; after Stop capture, while it runs, start a new capture window"));
    stopButton_ = new QPushButton(tr("S&top capture"), this);
    stopButton_->setToolTip(tr("End the capture window now: what was recorded is saved, the program keeps running"));
    terminateButton_ = new QPushButton(tr("&Terminate program"), this);
    terminateButton_->setToolTip(tr("End the program (SIGTERM, then SIGKILL after 2 s); an open capture is saved"));
    closeButton_ = new QPushButton(tr("Close"), this);
    closeButton_->setToolTip(tr("A program still running is terminated first"));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(startButton_);
    buttons->addWidget(stopButton_);
    buttons->addWidget(terminateButton_);
    buttons->addWidget(closeButton_);
    // Room around the longer labels (some styles size buttons to their text exactly).
    for (QPushButton* b : {startButton_, stopButton_, terminateButton_, closeButton_})
        b->setMinimumWidth(b->sizeHint().width() + fontMetrics().averageCharWidth() * 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(formError_);
    layout->addWidget(status_);
    layout->addWidget(output_, 1);
    layout->addLayout(buttons);

    poll_ = new QTimer(this);
    poll_->setInterval(200);
    connect(poll_, &QTimer::timeout, this, &LaunchDialog::refresh);
    connect(startButton_, &QPushButton::clicked, this, &LaunchDialog::startLaunch);
    connect(stopButton_, &QPushButton::clicked, this, &LaunchDialog::stopLaunch);
    connect(terminateButton_, &QPushButton::clicked, this, &LaunchDialog::terminateProgram);
    connect(runner_, &LaunchRunner::captureSaved, this, &LaunchDialog::captureSaved);
    connect(closeButton_, &QPushButton::clicked, this, &LaunchDialog::reject);
    connect(runner_, &LaunchRunner::finished, this, &LaunchDialog::finish);
    connect(runner_, &LaunchRunner::output, this, &LaunchDialog::appendOutput);
    loadSettings();
    setRunning(false);
}

LaunchDialog::~LaunchDialog() = default;

bool LaunchDialog::running() const { return runner_->running(); }
void LaunchDialog::setCommand(const QString& command) { command_->setText(command); }
void LaunchDialog::setLogdir(const QString& logdir) { logdir_->setText(logdir); }
QString LaunchDialog::statusText() const { return status_->text(); }
QString LaunchDialog::outputText() const { return output_->toPlainText(); }

void LaunchDialog::appendOutput(const QByteArray& bytes) {
    // Text inserted at the end keeps a partial line together (appendPlainText would start a new one).
    QTextCursor end(output_->document());
    end.movePosition(QTextCursor::End);
    end.insertText(outputDecoder_.decode(bytes));
    output_->verticalScrollBar()->setValue(output_->verticalScrollBar()->maximum());
}

bool LaunchDialog::readOptions(capture::LaunchOptions& out, QString& error) const {
    const QStringList words = QProcess::splitCommand(command_->text());
    if (words.isEmpty()) {
        error = tr("Enter the program to run.");
        return false;
    }
    if (logdir_->text().trimmed().isEmpty()) {
        error = tr("Choose a log folder.");
        return false;
    }
    out = {};
    for (const QString& w : words) out.command.push_back(w.toStdString());
    out.workingDir = workingDir_->text().trimmed().toStdString();
    for (const QString& line : environment_->toPlainText().split('\n', Qt::SkipEmptyParts)) {
        const QString l = line.trimmed();
        const qsizetype eq = l.indexOf('=');
        if (l.isEmpty()) continue;
        if (eq <= 0) {
            error = tr("Environment lines are NAME=VALUE: \"%1\"").arg(l);
            return false;
        }
        out.environment.emplace_back(l.left(eq).toStdString(), l.mid(eq + 1).toStdString());
    }
    QStringList kinds = {"kernel", "memcpy", "memset", "runtime"};
    if (sync_->isChecked()) kinds << "sync";
    if (nvtx_->isChecked()) kinds << "nvtx";
    if (memory_->isChecked()) kinds << "memory";
    if (driver_->isChecked()) kinds << "driver";
    out.kinds = kinds.join(',').toStdString();
    out.earlyNvtx = nvtx_->isChecked() && earlyNvtx_->isChecked();
    out.durationMs = uint64_t(durationMs_->value());
    out.logdir = logdir_->text().trimmed().toStdString();
    out.agentPath = capture::findAgentLibrary(QCoreApplication::applicationFilePath().toStdString());
    return true;
}

void LaunchDialog::startLaunch() {
    if (runner_->running()) {
        if (savedSummary_.isEmpty()) return;  // a window is open already
        runner_->restartCapture();
        savedSummary_.clear();
        startButton_->setEnabled(false);
        stopButton_->setEnabled(true);
        status_->setText(tr("Capturing again…"));
        return;
    }
    capture::LaunchOptions options;
    QString error;
    if (!readOptions(options, error)) {
        formError_->setText(error);
        formError_->show();
        return;
    }
    formError_->hide();
    saveSettings();
    runningLogdir_ = q(options.logdir);
    savedSummary_.clear();
    output_->clear();
    outputDecoder_.resetState();
    runner_->start(std::move(options));
    setRunning(true);
    status_->setText(tr("Starting…"));
    poll_->start();
}

void LaunchDialog::stopLaunch() {
    if (!runner_->running() || !savedSummary_.isEmpty()) return;
    runner_->stopCapture();
    stopButton_->setEnabled(false);
    status_->setText(tr("Stopping the capture: the agents flush and stop recording…"));
}

void LaunchDialog::terminateProgram() {
    if (!runner_->running()) return;
    runner_->terminate();
    stopButton_->setEnabled(false);
    terminateButton_->setEnabled(false);
    status_->setText(tr("Terminating the program…"));
}

void LaunchDialog::refresh() {
    if (!runner_->running()) return;
    const capture::LaunchProgress p = runner_->progress();
    const QString running = tr("Running (pid %1) for %2 s")
                                .arg(p.pid)
                                .arg(double(p.elapsedMs) / 1000.0, 0, 'f', 1);
    if (!savedSummary_.isEmpty()) {
        status_->setText(running + tr(", no longer recording (Start records again).") + QLatin1Char('\n') +
                         savedSummary_);
        return;
    }
    status_->setText(running + tr(": %1 CUDA process(es) connected, %2 records received%3")
                                   .arg(p.processes)
                                   .arg(QLocale().toString(qulonglong(p.records)))
                                   .arg(p.windowOpen ? QString() : tr("; saving the capture…")));
}

QStringList LaunchDialog::summary(const capture::LaunchResult& r) const {
    QStringList lines;
    for (const capture::LaunchedProcess& p : r.processes)
        lines << tr("Process %1: %2 records, %3 kernels, %4 copies, %5 API calls%6")
                     .arg(p.pid)
                     .arg(QLocale().toString(qulonglong(p.records)))
                     .arg(p.stats.kernels)
                     .arg(p.stats.memcpys)
                     .arg(p.stats.apis)
                     .arg(p.stats.droppedRecords ? tr(", %1 dropped").arg(p.stats.droppedRecords) : QString());
    if (r.captureOk()) lines << tr("Saved in %1").arg(q(r.runDir));
    if (!r.outputPath.empty()) lines << tr("The program's output: %1").arg(q(r.outputPath));
    else lines << tr("Nothing was captured:");
    for (const std::string& problem : r.problems) lines << QStringLiteral("• ") + q(problem);
    return lines;
}

void LaunchDialog::captureSaved(const capture::LaunchResult& r) {
    savedSummary_ = summary(r).join('\n');
    stopButton_->setEnabled(false);
    startButton_->setEnabled(true);  // a new window while the program runs on
    refresh();
    if (r.captureOk() && openWhenDone_->isChecked()) emit openRequested(runningLogdir_, q(r.runDir));
}

void LaunchDialog::finish(const capture::LaunchResult& r) {
    poll_->stop();
    setRunning(false);
    QStringList lines;
    if (!r.started) {
        lines << tr("Could not start: %1").arg(q(r.startError));
    } else {
        lines << (r.termSignal ? tr("The program was killed by signal %1.").arg(r.termSignal)
                 : r.exited    ? tr("The program exited with status %1.").arg(r.exitStatus)
                               : tr("The program is still running."));
        lines << summary(r);
    }
    status_->setText(lines.join('\n'));
    emit launchFinished(r);
    // A capture saved at Stop was offered for opening then.
    if (r.captureOk() && openWhenDone_->isChecked() && savedSummary_.isEmpty())
        emit openRequested(runningLogdir_, q(r.runDir));
}

void LaunchDialog::setRunning(bool running) {
    startButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
    terminateButton_->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{command_, workingDir_, environment_, sync_, nvtx_, memory_,
                                                      driver_, durationMs_, logdir_})
        w->setEnabled(!running);
    earlyNvtx_->setEnabled(!running && nvtx_->isChecked());
}

void LaunchDialog::loadSettings() {
    QSettings s;
    command_->setText(s.value(QStringLiteral("launch/command")).toString());
    workingDir_->setText(s.value(QStringLiteral("launch/workingDir")).toString());
    environment_->setPlainText(s.value(QStringLiteral("launch/environment")).toString());
    sync_->setChecked(s.value(QStringLiteral("launch/sync"), true).toBool());
    nvtx_->setChecked(s.value(QStringLiteral("launch/nvtx"), true).toBool());
    memory_->setChecked(s.value(QStringLiteral("launch/memory"), true).toBool());
    driver_->setChecked(s.value(QStringLiteral("launch/driver"), false).toBool());
    earlyNvtx_->setChecked(s.value(QStringLiteral("launch/earlyNvtx"), false).toBool());
    durationMs_->setValue(s.value(QStringLiteral("launch/durationMs"), 0).toInt());
    logdir_->setText(s.value(QStringLiteral("launch/logdir"), defaultLogdir()).toString());
    openWhenDone_->setChecked(s.value(QStringLiteral("launch/open"), true).toBool());
}

void LaunchDialog::saveSettings() const {
    QSettings s;
    s.setValue(QStringLiteral("launch/command"), command_->text());
    s.setValue(QStringLiteral("launch/workingDir"), workingDir_->text());
    s.setValue(QStringLiteral("launch/environment"), environment_->toPlainText());
    s.setValue(QStringLiteral("launch/sync"), sync_->isChecked());
    s.setValue(QStringLiteral("launch/nvtx"), nvtx_->isChecked());
    s.setValue(QStringLiteral("launch/memory"), memory_->isChecked());
    s.setValue(QStringLiteral("launch/driver"), driver_->isChecked());
    s.setValue(QStringLiteral("launch/earlyNvtx"), earlyNvtx_->isChecked());
    s.setValue(QStringLiteral("launch/durationMs"), durationMs_->value());
    s.setValue(QStringLiteral("launch/logdir"), logdir_->text());
    s.setValue(QStringLiteral("launch/open"), openWhenDone_->isChecked());
}

void LaunchDialog::reject() {
    if (runner_->running()) {
        terminateProgram();
        return;  // the dialog stays until the program has ended and the capture is saved
    }
    QDialog::reject();
}

}  // namespace tracescope
