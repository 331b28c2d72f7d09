// The capture types carried by queued signals between the capture thread and the UI.
// Declared once, before any header's signals use them.
#pragma once

#include "model/capture/capture_session.h"
#include "model/capture/launch_session.h"

#include <QMetaType>

Q_DECLARE_METATYPE(tracescope::capture::WorkerStatus)
Q_DECLARE_METATYPE(tracescope::capture::CaptureResult)
Q_DECLARE_METATYPE(tracescope::capture::LaunchResult)
