#include "views/details/details_panel.h"

#include "model/query/slice_queries.h"
#include "views/details/range_aggregate_model.h"
#include "views/flame/range_flame_panel.h"
#include "views/runner_future.h"
#include "views/timeline/time_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

namespace tracescope {

namespace {

constexpr int kRefRole = Qt::UserRole + 1;
constexpr int kActionRole = Qt::UserRole + 2;  // index into actions_
constexpr int kMaxChildrenListed = 200;

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

}  // namespace

DetailsPanel::DetailsPanel(QWidget* parent) : QWidget(parent) {
    stack_ = new QStackedWidget(this);
    hint_ = new WrappingLabel(tr("Click a slice to see its details; Shift+drag on the timeline to aggregate a time range."), this);
    hint_->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    hint_->setContentsMargins(8, 2, 8, 2);
    hint_->setForegroundRole(QPalette::PlaceholderText);

    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Field"), tr("Value")});
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->header()->resizeSection(0, 170);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QVariant action = item->data(1, kActionRole);
        if (action.isValid() && action.toULongLong() < actions_.size()) {
            // The action may show other details, which clears the tree: run a copy.
            const std::function<void()> run = actions_[size_t(action.toULongLong())];
            run();
            return;
        }
        const QVariant v = item->data(1, kRefRole);
        if (!v.isValid() || !selection_) return;
        const qulonglong key = v.toULongLong();
        selection_->selectSlice(SliceRef{TrackIndex(key >> 32), uint32_t(key & 0xffffffffu)});
    });
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { emit tree_->itemActivated(item, 1); });

    rangePage_ = new QWidget(this);
    rangeTitle_ = new QLabel(rangePage_);
    rangeTitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rangeModel_ = new RangeAggregateModel(this);
    rangeProxy_ = new QSortFilterProxyModel(this);
    rangeProxy_->setSourceModel(rangeModel_);
    rangeProxy_->setSortRole(RangeAggregateModel::SortRole);
    rangeTable_ = new QTableView(rangePage_);
    rangeTable_->setModel(rangeProxy_);
    rangeTable_->setSortingEnabled(true);
    rangeTable_->sortByColumn(RangeAggregateModel::Total, Qt::DescendingOrder);
    rangeTable_->setAlternatingRowColors(true);
    rangeTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    rangeTable_->verticalHeader()->hide();
    rangeTable_->horizontalHeader()->setSectionResizeMode(RangeAggregateModel::Name, QHeaderView::Stretch);
    auto* rl = new QVBoxLayout(rangePage_);
    rl->setContentsMargins(4, 4, 4, 4);
    rl->addWidget(rangeTitle_);
    // The range by slice name, and as a flame graph of the host threads' call stacks in it.
    rangeTabs_ = new QTabWidget(rangePage_);
    rangeTabs_->setDocumentMode(true);
    rangeTabs_->addTab(rangeTable_, tr("By name"));
    rangeFlame_ = new RangeFlamePanel(rangeTabs_);
    rangeTabs_->addTab(rangeFlame_, tr("Flame graph"));
    rl->addWidget(rangeTabs_, 1);
    connect(&rangeWatcher_, &QFutureWatcher<std::shared_ptr<RangeAggregate>>::finished, this, [this] {
        auto result = rangeWatcher_.result();
        if (!result || !trace_) return;
        rangeTitle_->setText(tr("<b>Range</b> %1 – %2 · <b>%3</b> · %4 slices starting in it, %5 names")
                                 .arg(formatDurationExact(result->begin), formatDurationExact(result->end),
                                      formatDuration(result->end - result->begin))
                                 .arg(result->sliceCount)
                                 .arg(result->rows.size()));
        rangeModel_->setAggregate(trace_, std::move(*result));
    });

    stack_->addWidget(hint_);
    stack_->addWidget(tree_);
    stack_->addWidget(rangePage_);
    textPage_ = new QLabel(this);
    textPage_->setTextFormat(Qt::RichText);
    textPage_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    textPage_->setContentsMargins(8, 4, 8, 4);
    textPage_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stack_->addWidget(textPage_);
    // The pages' own minimum heights would keep the dock tall when only the hint shows.
    stack_->setMinimumHeight(compactHeight());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
}

DetailsPanel::~DetailsPanel() { rangeWatcher_.waitForFinished(); }

void DetailsPanel::showPage(QWidget* page) {
    const bool wasEmpty = isEmpty();
    stack_->setCurrentWidget(page);
    if (wasEmpty != isEmpty()) emit emptyChanged(isEmpty());
}

bool DetailsPanel::isEmpty() const { return stack_->currentWidget() == hint_; }

int DetailsPanel::compactHeight() const { return hint_->fontMetrics().height() + 8; }

bool DetailsPanel::isCallStackKey(const QString& key) {
    const QString k = key.toLower();
    return k == QLatin1String("call stack") || k == QLatin1String("call_stack") || k == QLatin1String("stack") ||
           k == QLatin1String("python stack");
}

QStringList DetailsPanel::callStackFrames(const QString& value) {
    QStringList frames;
    for (const QString& f : value.split(QRegularExpression(QStringLiteral("[;\\n]")), Qt::SkipEmptyParts)) {
        const QString t = f.trimmed();
        if (!t.isEmpty()) frames << t;
    }
    return frames;
}

void DetailsPanel::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    rangeFlame_->setTrace(trace_);
    clear();
}

void DetailsPanel::setSelection(TraceSelection* selection) {
    if (selection_) disconnect(selection_, nullptr, this, nullptr);
    selection_ = selection;
    rangeFlame_->setSelection(selection);
    if (!selection_) return;
    connect(selection_, &TraceSelection::sliceSelected, this, &DetailsPanel::showSlice);
    connect(selection_, &TraceSelection::detailsRequested, this, &DetailsPanel::showGroup);
}

void DetailsPanel::clearTree() {
    tree_->clear();
    actions_.clear();
}

void DetailsPanel::clear() {
    clearTree();
    rangeModel_->setAggregate(trace_, {});
    showPage(hint_);
}

QString DetailsPanel::trackLabel(TrackIndex t) const {
    const Track& track = trace_->tracks[t];
    QString name = QString::fromStdString(track.name);
    if (name.isEmpty()) name = QStringLiteral("tid %1").arg(track.tid);
    if (track.process < trace_->processes.size()) {
        const Process& p = trace_->processes[track.process];
        QString pname = QString::fromStdString(p.name);
        if (pname.isEmpty()) pname = QStringLiteral("pid %1").arg(p.pid);
        return pname + QStringLiteral(" › ") + name;
    }
    return name;
}

QString DetailsPanel::sliceLabel(SliceRef s) const {
    const SliceColumns& c = trace_->tracks[s.track].slices;
    return QStringLiteral("%1  (%2 at %3, %4)")
        .arg(qstr(trace_->str(c.name[s.index])), formatDuration(c.duration[s.index]),
             formatDurationExact(c.start[s.index]), trackLabel(s.track));
}

QTreeWidgetItem* DetailsPanel::addField(QTreeWidgetItem* parent, const QString& key, const QString& value) {
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
    item->setText(0, key);
    item->setText(1, value);
    item->setToolTip(1, value);
    return item;
}

QTreeWidgetItem* DetailsPanel::addSliceLink(QTreeWidgetItem* parent, const QString& key, SliceRef slice) {
    QTreeWidgetItem* item = addField(parent, key, sliceLabel(slice));
    item->setData(1, kRefRole, QVariant(qulonglong((uint64_t(slice.track) << 32) | slice.index)));
    QFont f = item->font(1);
    f.setUnderline(true);
    item->setFont(1, f);
    item->setForeground(1, palette().brush(QPalette::Link));
    item->setToolTip(1, tr("Click to go to this slice"));
    return item;
}

void DetailsPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->data(1, kRefRole).isValid() || (*it)->data(1, kActionRole).isValid())
            (*it)->setForeground(1, palette().brush(QPalette::Link));
}

void DetailsPanel::addItem(QTreeWidgetItem* parent, const DetailsItem& d) {
    QTreeWidgetItem* item = d.link.valid() && trace_ && d.link.track < trace_->tracks.size() &&
                                    d.link.index < trace_->tracks[d.link.track].slices.size()
                                ? addSliceLink(parent, d.key, d.link)
                                : addField(parent, d.key, d.value);
    if (d.link.valid() && !d.value.isEmpty()) item->setText(1, d.value + QStringLiteral(" · ") + item->text(1));
    if (d.action && !d.link.valid()) {
        item->setData(1, kActionRole, QVariant(qulonglong(actions_.size())));
        actions_.push_back(d.action);
        QFont f = item->font(1);
        f.setUnderline(true);
        item->setFont(1, f);
        item->setForeground(1, palette().brush(QPalette::Link));
    }
    if (!d.toolTip.isEmpty()) {
        item->setToolTip(0, d.toolTip);
        item->setToolTip(1, d.toolTip);
    }
    for (const DetailsItem& c : d.children) addItem(item, c);
    item->setExpanded(d.expanded);
}

void DetailsPanel::showGroup(const DetailsGroup& group) {
    clearTree();
    if (!group.title.isEmpty()) {
        auto* title = new QTreeWidgetItem(tree_);
        title->setText(0, group.title);
        title->setToolTip(0, group.title);
        title->setFirstColumnSpanned(true);
        QFont f = title->font(0);
        f.setBold(true);
        title->setFont(0, f);
    }
    for (const DetailsItem& d : group.items) addItem(nullptr, d);
    showPage(tree_);
}

void DetailsPanel::showSlice(SliceRef s) {
    clearTree();
    if (!trace_ || !s.valid() || s.track >= trace_->tracks.size() || s.index >= trace_->tracks[s.track].slices.size()) {
        showPage(hint_);
        return;
    }
    const Track& track = trace_->tracks[s.track];
    const SliceColumns& c = track.slices;
    addField(nullptr, tr("Name"), qstr(trace_->str(c.name[s.index])));
    addField(nullptr, tr("Category"), qstr(trace_->str(c.category[s.index])));
    addField(nullptr, tr("Start"), formatDurationExact(c.start[s.index]));
    addField(nullptr, tr("Duration"), formatDurationExact(c.duration[s.index]) +
                                          (c.unfinished(s.index) ? tr("  (unfinished: no end event)") : QString()));
    addField(nullptr, tr("Self time"), formatDurationExact(selfTime(*trace_, s)));
    // What pages add (e.g. the tf.data figures this event counts in) next to the figures they qualify.
    if (selection_)
        for (const DetailsItem& d : selection_->annotations(s)) addItem(nullptr, d);
    addField(nullptr, tr("Track"), trackLabel(s.track));
    addField(nullptr, track.kind == TrackKind::Async ? tr("Lane") : tr("Depth"), QString::number(c.depth(s.index)));

    const std::vector<Arg> args = decodeArgs(track.argsView(), c.args[s.index]);
    QTreeWidgetItem* argsItem = addField(nullptr, tr("Args"), args.empty() ? tr("none") : QString::number(args.size()));
    for (const Arg& a : args) {
        const QString key = qstr(trace_->str(a.key));
        const QString value = QString::fromStdString(a.value.toString(trace_->strings));
        const QStringList frames = isCallStackKey(key) ? callStackFrames(value) : QStringList();
        if (frames.size() < 2) {
            addField(argsItem, key, value);
            continue;
        }
        // A call stack: one row per frame, the whole text in the tooltip.
        QTreeWidgetItem* stackItem = addField(argsItem, key, tr("%1 frames").arg(frames.size()));
        stackItem->setToolTip(1, value);
        for (int i = 0; i < frames.size(); ++i) addField(stackItem, QStringLiteral("#%1").arg(i), frames[i]);
        stackItem->setExpanded(true);
    }
    argsItem->setExpanded(true);

    const SliceRef parent = parentSlice(*trace_, s);
    if (parent.valid()) addSliceLink(nullptr, tr("Parent"), parent);
    const std::vector<SliceRef> children = childSlices(*trace_, s);
    if (!children.empty()) {
        QTreeWidgetItem* ci = addField(nullptr, tr("Children"), QString::number(children.size()));
        for (size_t i = 0; i < children.size() && i < size_t(kMaxChildrenListed); ++i) addSliceLink(ci, QString(), children[i]);
        if (children.size() > size_t(kMaxChildrenListed))
            addField(ci, QString(), tr("… %1 more").arg(children.size() - kMaxChildrenListed));
        ci->setExpanded(children.size() <= 20);
    }
    const auto out = trace_->flowsFrom(s);
    const auto in = trace_->flowsTo(s);
    if (!out.empty() || !in.empty()) {
        QTreeWidgetItem* fi = addField(nullptr, tr("Flows"), QString::number(out.size() + in.size()));
        for (uint32_t f : out) {
            const Flow& flow = trace_->flows[f];
            QString what = qstr(trace_->str(trace_->flowName(flow)));
            addSliceLink(fi, tr("→ to") + (what.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(what)), flow.to);
        }
        for (uint32_t f : in) {
            const Flow& flow = trace_->flows[f];
            QString what = qstr(trace_->str(trace_->flowName(flow)));
            addSliceLink(fi, tr("← from") + (what.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(what)), flow.from);
        }
        fi->setExpanded(true);
    }
    showPage(tree_);
}

void DetailsPanel::showRange(qint64 begin, qint64 end) {
    if (!trace_) return;
    rangeTitle_->setText(tr("Aggregating %1 …").arg(formatDuration(end - begin)));
    showPage(rangePage_);
    rangeWatcher_.setFuture(runOnJobRunner(JobPriority::Interactive, [trace = trace_, begin, end] {
        return std::make_shared<RangeAggregate>(aggregateRange(*trace, begin, end));
    }));
    rangeFlame_->showRange(begin, end);
}

void DetailsPanel::showText(const QString& html) {
    textPage_->setText(html);
    showPage(textPage_);
}

void DetailsPanel::waitForRange() {
    rangeWatcher_.waitForFinished();
    QCoreApplication::processEvents();
}

QString DetailsPanel::fieldText(const QString& field) const {
    const auto items = tree_->findItems(field, Qt::MatchExactly | Qt::MatchRecursive, 0);
    return items.isEmpty() ? QString() : items.front()->text(1);
}

}  // namespace tracescope
