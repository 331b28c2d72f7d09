// Cross-navigation between views: one object the main window owns and every view shares.
#pragma once

#include "model/trace/types.h"
#include "views/details/details_item.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

namespace tracescope {

class TraceSelection : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    SliceRef selectedSlice() const { return selected_; }

    // A page that knows more about some slices (the tf.data page: which call of which pipeline an
    // iterator event counted in) adds rows to their details; it returns none for other slices.
    // Dropped when `owner` is destroyed.
    using Annotator = std::function<std::vector<DetailsItem>(SliceRef)>;
    void addAnnotator(QObject* owner, Annotator annotate) { annotators_.emplace_back(owner, std::move(annotate)); }
    std::vector<DetailsItem> annotations(SliceRef slice) const {
        std::vector<DetailsItem> out;
        for (const auto& [owner, annotate] : annotators_)
            if (owner)
                for (DetailsItem& item : annotate(slice)) out.push_back(std::move(item));
        return out;
    }

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
    // on it, a few percent of the data wide, and marks it.
    void showTime(qint64 timeNs) { emit timeRequested(timeNs); }
    // Show a stretch of time in the timeline (an allocation's lifetime), selecting nothing.
    void showSpan(qint64 begin, qint64 end) { emit spanRequested(begin, end); }
    // Details a page composed for what it picked (e.g. a tf.data iterator's events in one call,
    // summed): the Details panel shows them.
    void showDetails(const tracescope::DetailsGroup& details) { emit detailsRequested(details); }

signals:
    void sliceSelected(tracescope::SliceRef slice);
    void slicesHighlighted(std::vector<tracescope::SliceRef> slices, QString label);
    void timeRequested(qint64 timeNs);
    void spanRequested(qint64 begin, qint64 end);
    void detailsRequested(const tracescope::DetailsGroup& details);

private:
    SliceRef selected_;
    std::vector<std::pair<QPointer<QObject>, Annotator>> annotators_;
};

}  // namespace tracescope

Q_DECLARE_METATYPE(tracescope::SliceRef)
