// The step marker the user picked, and whether every step is averaged, shared by every
// step-based page (Overview, Input Pipeline, tf.data, Pod, Compare): one object the main window
// owns, so a choice made on one page is used on all of them.
// Marker empty: automatic (ProfilerStep#N, XSpace steps, user step annotations, else inferred).
// allSteps false: the trace's step set (step_set.h: TensorBoard's on XSpace).
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
    bool allSteps() const { return allSteps_; }
    StepOptions stepOptions() const { return StepOptions{marker_.toStdString(), allSteps_}; }

    // Another trace is open: its steps are found automatically until the user picks a marker for
    // it, and its "all steps" choice is the one remembered for that file (quietly: the pages
    // analyse the new trace anyway). Later "all steps" changes are remembered for it.
    void setTracePath(const QString& path);

public slots:
    void setMarker(const QString& marker) {
        if (marker == marker_) return;
        marker_ = marker;
        emit markerChanged(marker_);
        emit changed();
    }
    void setAllSteps(bool all) {
        if (all == allSteps_) return;
        allSteps_ = all;
        remember();
        emit allStepsChanged(allSteps_);
        emit changed();
    }

signals:
    void markerChanged(QString marker);
    void allStepsChanged(bool allSteps);
    // Either of the two: the step options are different.
    void changed();

private:
    QString marker_;
    bool allSteps_ = false;
    QString settingsKey_;  // where this trace's "all steps" choice is kept, "" for none
    void remember() const;
};

}  // namespace tracescope
