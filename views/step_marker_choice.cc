#include "views/step_marker_choice.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

namespace tracescope {

void StepMarkerChoice::setTracePath(const QString& path) {
    marker_.clear();
    // Keyed by the file's canonical path: a relative path or a symlink to it finds the same choice.
    const QFileInfo info(path);
    const QString id = info.exists() ? info.canonicalFilePath() : path;
    settingsKey_ = id.isEmpty() ? QString()
                                : QStringLiteral("stepSet/allSteps/") +
                                      QString::fromLatin1(QCryptographicHash::hash(id.toUtf8(), QCryptographicHash::Sha1).toHex());
    allSteps_ = !settingsKey_.isEmpty() && QSettings().value(settingsKey_, false).toBool();
    // The pickers show the new values; changed() is not emitted, the pages analyse the new trace anyway.
    emit markerChanged(marker_);
    emit allStepsChanged(allSteps_);
}

void StepMarkerChoice::remember() const {
    if (settingsKey_.isEmpty()) return;
    QSettings settings;
    if (allSteps_) settings.setValue(settingsKey_, true);
    else settings.remove(settingsKey_);
}

}  // namespace tracescope
