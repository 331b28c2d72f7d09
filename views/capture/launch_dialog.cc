#include "views/capture/launch_dialog.h"

#include "views/capture/launch_runner.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
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

    durationMs_ = new QSpinBox(this);
    durationMs_->setRange(0, 24 * 3600 * 1000);
    durationMs_->setSingleStep(1000);
    durationMs_->setSuffix(tr(" ms"));
    durationMs_->setSpecialValueText(tr("until the program exits (or Stop)"));
    durationMs_->setGroupSeparatorShown(true);
    form->addRow(tr("Capture window:"), durationMs_);
    logdir_ = new QLineEdit(this);
    form->addRow(tr("Log folder:"), withBrowse(logdir_, this, true));
    openWhenDone_ = new QCheckBox(tr("Open the capture when done"), this);
    form->addRow(QString(), openWhenDone_);

    formError_ = new QLabel(this);
    formError_->setStyleSheet(QStringLiteral("color: #c62828"));
    formError_->setWordWrap(true);
    formError_->hide();
    status_ = new QLabel(tr("The program runs with our CUPTI agent injected (CUDA_INJECTION64_PATH); each CUDA "
                            "process is saved as <host>.<pid>.xplane.pb in a TensorBoard run folder."),
                         this);
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::PlainText);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    startButton_ = new QPushButton(tr("&Start"), this);
    startButton_->setDefault(true);
    stopButton_ = new QPushButton(tr("S&top"), this);
    stopButton_->setToolTip(tr("End the capture now: what was recorded is saved and the program is terminated"));
    closeButton_ = new QPushButton(tr("Close"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(startButton_);
    buttons->addWidget(stopButton_);
    buttons->addWidget(closeButton_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(formError_);
    layout->addWidget(status_);
    layout->addStretch(1);
    layout->addLayout(buttons);

    poll_ = new QTimer(this);
    poll_->setInterval(200);
    connect(poll_, &QTimer::timeout, this, &LaunchDialog::refresh);
    connect(startButton_, &QPushButton::clicked, this, &LaunchDialog::startLaunch);
    connect(stopButton_, &QPushButton::clicked, this, &LaunchDialog::stopLaunch);
    connect(closeButton_, &QPushButton::clicked, this, &LaunchDialog::reject);
    connect(runner_, &LaunchRunner::finished, this, &LaunchDialog::finish);
    loadSettings();
    setRunning(false);
}

LaunchDialog::~LaunchDialog() = default;

bool LaunchDialog::running() const { return runner_->running(); }
void LaunchDialog::setCommand(const QString& command) { command_->setText(command); }
void LaunchDialog::setLogdir(const QString& logdir) { logdir_->setText(logdir); }
QString LaunchDialog::statusText() const { return status_->text(); }

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
    out.durationMs = uint64_t(durationMs_->value());
    out.logdir = logdir_->text().trimmed().toStdString();
    out.agentPath = capture::findAgentLibrary(QCoreApplication::applicationFilePath().toStdString());
    return true;
}

void LaunchDialog::startLaunch() {
    if (runner_->running()) return;
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
    runner_->start(std::move(options));
    setRunning(true);
    status_->setText(tr("Starting…"));
    poll_->start();
}

void LaunchDialog::stopLaunch() {
    if (!runner_->running()) return;
    runner_->stop();
    status_->setText(tr("Stopping: saving what was recorded…"));
}

void LaunchDialog::refresh() {
    if (!runner_->running()) return;
    const capture::LaunchProgress p = runner_->progress();
    status_->setText(tr("Running (pid %1) for %2 s: %3 CUDA process(es) connected, %4 records received")
                         .arg(p.pid)
                         .arg(double(p.elapsedMs) / 1000.0, 0, 'f', 1)
                         .arg(p.processes)
                         .arg(QLocale().toString(qulonglong(p.records))));
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
        for (const capture::LaunchedProcess& p : r.processes)
            lines << tr("Process %1: %2 records, %3 kernels, %4 copies, %5 API calls%6")
                         .arg(p.pid)
                         .arg(QLocale().toString(qulonglong(p.records)))
                         .arg(p.stats.kernels)
                         .arg(p.stats.memcpys)
                         .arg(p.stats.apis)
                         .arg(p.stats.droppedRecords ? tr(", %1 dropped").arg(p.stats.droppedRecords) : QString());
        if (r.captureOk()) lines << tr("Saved in %1").arg(q(r.runDir));
        else lines << tr("Nothing was captured:");
        for (const std::string& problem : r.problems) lines << QStringLiteral("• ") + q(problem);
    }
    status_->setText(lines.join('\n'));
    emit launchFinished(r);
    if (r.captureOk() && openWhenDone_->isChecked()) emit openRequested(runningLogdir_, q(r.runDir));
}

void LaunchDialog::setRunning(bool running) {
    startButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{command_, workingDir_, environment_, sync_, nvtx_, memory_,
                                                      driver_, durationMs_, logdir_})
        w->setEnabled(!running);
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
    s.setValue(QStringLiteral("launch/durationMs"), durationMs_->value());
    s.setValue(QStringLiteral("launch/logdir"), logdir_->text());
    s.setValue(QStringLiteral("launch/open"), openWhenDone_->isChecked());
}

void LaunchDialog::reject() {
    if (runner_->running()) {
        stopLaunch();
        return;  // the dialog stays until the capture is saved
    }
    QDialog::reject();
}

}  // namespace tracescope
