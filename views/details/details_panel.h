// The details dock: for a selected slice its name, category, times, self time,
// track, decoded args, parent, children and flows (each linked slice is
// clickable), and the rows pages add about it (TraceSelection::annotations); for a
// range selection the per-name aggregate table and the flame graph of the range; for a group a page picked (a tf.data
// iterator's events in one call) the rows the page composed.
#pragma once

#include "model/query/range_aggregate.h"
#include "model/trace/trace.h"
#include "views/details/details_item.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTreeWidget;
class QTreeWidgetItem;

namespace tracescope {

class RangeAggregateModel;
class RangeFlamePanel;
class TraceSelection;

class DetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPanel(QWidget* parent = nullptr);
    ~DetailsPanel() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    void setSelection(TraceSelection* selection);

    void showSlice(SliceRef slice);
    void showRange(qint64 begin, qint64 end);
    // Something that is not a slice (a point of a derived memory track), as rich text.
    void showText(const QString& html);
    void showGroup(const DetailsGroup& group);
    void clear();

    // Nothing selected: only a one-line hint, and the dock can shrink to compactHeight().
    bool isEmpty() const;
    int compactHeight() const;
    // The frames of a call-stack arg ("a.py(3): f;b.py(9): g"), outermost as written first.
    static QStringList callStackFrames(const QString& value);
    static bool isCallStackKey(const QString& key);

    // For tests: the text shown for a field ("Duration", "Self time", ...) or an arg key.
    QString fieldText(const QString& field) const;
    QTreeWidget* sliceTree() const { return tree_; }
    RangeAggregateModel* rangeModel() const { return rangeModel_; }
    RangeFlamePanel* rangeFlame() const { return rangeFlame_; }
    void waitForRange();

signals:
    void emptyChanged(bool empty);

protected:
    // A theme switch: the link rows take the new palette's link colour.
    void changeEvent(QEvent* event) override;

private:
    std::shared_ptr<const Trace> trace_;
    TraceSelection* selection_ = nullptr;
    QStackedWidget* stack_;
    QLabel* hint_;
    QTreeWidget* tree_;
    QWidget* rangePage_;
    QLabel* textPage_ = nullptr;
    QLabel* rangeTitle_;
    QTableView* rangeTable_;
    QTabWidget* rangeTabs_ = nullptr;
    RangeFlamePanel* rangeFlame_ = nullptr;
    RangeAggregateModel* rangeModel_;
    QSortFilterProxyModel* rangeProxy_;
    QFutureWatcher<std::shared_ptr<RangeAggregate>> rangeWatcher_;
    std::vector<std::function<void()>> actions_;  // of the tree's action rows, by index

    void showPage(QWidget* page);
    QTreeWidgetItem* addField(QTreeWidgetItem* parent, const QString& key, const QString& value);
    QTreeWidgetItem* addSliceLink(QTreeWidgetItem* parent, const QString& key, SliceRef slice);
    void addItem(QTreeWidgetItem* parent, const DetailsItem& item);
    void clearTree();
    QString sliceLabel(SliceRef slice) const;
    QString trackLabel(TrackIndex t) const;
};

}  // namespace tracescope
