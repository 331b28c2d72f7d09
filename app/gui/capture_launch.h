// File › Capture Profile… and File › Launch & Capture…: their dialogs, each made on first use
// and kept (with its fields and history) for the window's life. A finished capture's run is
// handed on through openRequested.
#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace tracescope {

class CaptureDialog;
class LaunchDialog;

class CaptureLaunch : public QObject {
    Q_OBJECT
public:
    // The dialogs are children of `window`.
    explicit CaptureLaunch(QWidget* window);
    void showCaptureDialog();
    void showLaunchDialog();

signals:
    // Open `runDir`, a run just captured under `logdir`.
    void openRequested(QString logdir, QString runDir);

private:
    QWidget* window_;
    CaptureDialog* capture_ = nullptr;
    LaunchDialog* launch_ = nullptr;
};

}  // namespace tracescope
