// Cross-navigation between views: one object the main window owns and every view shares.
#pragma once

#include "model/trace/types.h"

#include <QObject>
#include <QString>

#include <vector>

namespace tracescope {

class TraceSelection : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    SliceRef selectedSlice() const { return selected_; }

public slots:
    // One slice was selected (in the timeline, or from a table / details link).
    void selectSlice(tracescope::SliceRef slice) {
        selected_ = slice;
        emit sliceSelected(slice);
    }
    // A set of slices to highlight (e.g. all occurrences of a table row); the timeline
    // highlights them and zooms to the first. `label` says what they are ("MatMul: 120 occurrences").
    void highlightSlices(std::vector<tracescope::SliceRef> slices, QString label) {
        emit slicesHighlighted(slices, label);
    }
    // Show a moment in the timeline (e.g. a click on the memory chart): the timeline centres
    // on it and marks it.
    void showTime(qint64 timeNs) { emit timeRequested(timeNs); }

signals:
    void sliceSelected(tracescope::SliceRef slice);
    void slicesHighlighted(std::vector<tracescope::SliceRef> slices, QString label);
    void timeRequested(qint64 timeNs);

private:
    SliceRef selected_;
};

}  // namespace tracescope

Q_DECLARE_METATYPE(tracescope::SliceRef)
