// The step marker the user picked, shared by every step-based page (Overview, Input Pipeline,
// Pod): one object the main window owns, so a marker chosen on one page is used on all of them.
// Empty: automatic (ProfilerStep#N, XSpace steps, user step annotations, else inferred).
#pragma once

#include "model/analysis/steps.h"

#include <QObject>
#include <QString>

namespace tracescope {

class StepMarkerChoice : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const QString& marker() const { return marker_; }
    StepOptions stepOptions() const { return StepOptions{marker_.toStdString()}; }

public slots:
    void setMarker(const QString& marker) {
        if (marker == marker_) return;
        marker_ = marker;
        emit markerChanged(marker_);
    }

signals:
    void markerChanged(QString marker);

private:
    QString marker_;
};

}  // namespace tracescope
