#include "app/gui/capture_launch.h"

#include "views/capture/capture_dialog.h"
#include "views/capture/launch_dialog.h"

namespace tracescope {

namespace {
void bringForward(QWidget* dialog) {
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}
}  // namespace

CaptureLaunch::CaptureLaunch(QWidget* window) : QObject(window), window_(window) {}

void CaptureLaunch::showCaptureDialog() {
    if (!capture_) {
        capture_ = new CaptureDialog(window_);
        connect(capture_, &CaptureDialog::openRequested, this, &CaptureLaunch::openRequested);
    }
    bringForward(capture_);
}

void CaptureLaunch::showLaunchDialog() {
    if (!launch_) {
        launch_ = new LaunchDialog(window_);
        connect(launch_, &LaunchDialog::openRequested, this, &CaptureLaunch::openRequested);
    }
    bringForward(launch_);
}

}  // namespace tracescope
