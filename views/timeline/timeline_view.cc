#include "views/timeline/timeline_view.h"

#include "views/timeline/timeline_canvas.h"

#include "views/memory/memory_event_text.h"

#include "model/analysis/analysis_cost.h"
#include "model/results/analysis_budget.h"
#include "model/results/gpu_util_results.h"
#include "model/results/launch_queue_results.h"
#include "model/results/saved_query_tracks.h"
#include "model/results/trace_results.h"
#include "views/runner_future.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <algorithm>
#include <optional>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace tracescope {

namespace {
// The store results the timeline asks for: its index, the memory tracks derived from the
// trace's memory profile (shared with the Memory page), and the GPU's idle gaps (from the GPU
// utilisation the GPU Utilization page shows).
const ResultKey kIndexKey{"timeline-index", ""};
const ResultKey kMemoryTracksKey{"timeline-memory-tracks", ""};
const ResultKey kIdleGapsKey{"timeline-idle-gaps", ""};
using IdleGapsPtr = std::shared_ptr<const IdleGapIndex>;
const ResultKey kCommOverlapKey{"timeline-comm-overlap", ""};
using OverlapPtr = std::shared_ptr<const CommOverlapIndex>;
using IndexPtr = std::shared_ptr<const TimelineIndex>;
using DerivedPtr = std::shared_ptr<const TimelineDerivedTracks>;
}  // namespace

TimelineView::TimelineView(QWidget* parent) : TraceView(parent), delivery_(ResultDelivery::to(this)) {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 4);
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Find slices by name (Ctrl+F)"));
    search_->setClearButtonEnabled(true);
    search_->setMinimumWidth(260);
    search_->setMaximumWidth(480);
    regex_ = new QCheckBox(tr("Regex"), this);
    regex_->setToolTip(tr("Treat the search text as a regular expression (ECMAScript, case-insensitive)"));
    prev_ = new QToolButton(this);
    prev_->setText(QStringLiteral("▲"));
    prev_->setToolTip(tr("Previous match (Shift+Enter)"));
    next_ = new QToolButton(this);
    next_->setText(QStringLiteral("▼"));
    next_->setToolTip(tr("Next match (Enter)"));
    matchLabel_ = new QLabel(this);
    matchLabel_->setMinimumWidth(120);
    auto* hint = new QLabel(tr("Ctrl+wheel / W S zoom · drag / A D pan · Shift+drag range · F focus · 0 fit"), this);
    hint->setForegroundRole(QPalette::PlaceholderText);
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a hint: never widens the window
    hint->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    bar->addWidget(search_);
    bar->addWidget(regex_);
    bar->addWidget(prev_);
    bar->addWidget(next_);
    bar->addWidget(matchLabel_);
    trackFilter_ = new QLineEdit(this);
    trackFilter_->setPlaceholderText(tr("Filter tracks"));
    trackFilter_->setToolTip(tr("Show only tracks whose name, or whose process's name, contains this text"));
    trackFilter_->setClearButtonEnabled(true);
    trackFilter_->setMaximumWidth(200);
    bar->addWidget(trackFilter_);
    bar->addSpacing(12);
    bar->addWidget(hint, 1);

    canvas_ = new TimelineCanvas(this);
    connect(&canvas_->controller(), &TimelineController::layoutChanged, this, &TimelineView::saveLayout);
    connect(canvas_, &TimelineCanvas::queryTrackRemoveRequested, this, &TimelineView::removeQueryTrack);
    connect(&canvas_->controller(), &TimelineController::bookmarkRequested, this,
            &TimelineView::addBookmarkInteractively);
    vscroll_ = new QScrollBar(Qt::Vertical, this);
    auto* body = new QHBoxLayout;
    body->setContentsMargins(0, 0, 0, 0);
    body->setSpacing(0);
    body->addWidget(canvas_, 1);
    body->addWidget(vscroll_);

    // Progressive display's state: what part of the file is drawn while the rest imports.
    loadingNote_ = new WrappingLabel(this);
    loadingNote_->setContentsMargins(8, 3, 8, 3);
    loadingNote_->setAutoFillBackground(true);
    loadingNote_->setBackgroundRole(QPalette::AlternateBase);
    loadingNote_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(loadingNote_);
    layout->addLayout(body, 1);

    connect(vscroll_, &QScrollBar::valueChanged, canvas_, &TimelineCanvas::setScrollY);
    connect(trackFilter_, &QLineEdit::textChanged, this,
            [this](const QString& text) { canvas_->controller().setTrackFilter(text.trimmed().toStdString()); });
    connect(canvas_, &TimelineCanvas::viewChanged, this, &TimelineView::syncScrollBar);
    connect(canvas_, &TimelineCanvas::viewChanged, this, &TimelineView::viewChanged);
    connect(canvas_, &TimelineCanvas::contentHeightChanged, this, &TimelineView::syncScrollBar);
    connect(canvas_, &TimelineCanvas::sliceClicked, this, &TimelineView::publishSelection);
    connect(&canvas_->controller(), &TimelineController::derivedPointClicked, this, [this](quint32 d, qint64 t) {
        const TimelineDerivedTracks* derived = canvas_->controller().derived();
        if (!derived || !derived->memory || d >= derived->tracks.size() || !trace_) return;
        if (derived->tracks[d].source != DerivedSource::Memory) return;
        const MemoryIdProfile& m = derived->memory->ids[derived->tracks[d].memoryId];
        if (m.timeline.empty() || t < m.timeline.front().time) return;
        emit memoryPointSelected(memoryEventText(*trace_, m, memorySnapshotAt(m, t)));
    });
    connect(canvas_, &TimelineCanvas::rangeSelected, this, &TimelineView::rangeSelected);
    connect(canvas_, &TimelineCanvas::rangeCleared, this, &TimelineView::rangeCleared);

    // Typing restarts the search after a short pause; Enter / Shift+Enter walk the matches.
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(200);
    connect(search_, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, &TimelineView::startSearch);
    connect(regex_, &QCheckBox::toggled, this, &TimelineView::startSearch);
    connect(search_, &QLineEdit::returnPressed, this, [this] {
        if (QApplication::keyboardModifiers() & Qt::ShiftModifier) previousMatch();
        else nextMatch();
    });
    connect(prev_, &QToolButton::clicked, this, &TimelineView::previousMatch);
    connect(next_, &QToolButton::clicked, this, &TimelineView::nextMatch);
    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, &TimelineView::focusSearch);
    auto* back = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Return), search_);
    back->setContext(Qt::WidgetShortcut);
    connect(back, &QShortcut::activated, this, &TimelineView::previousMatch);
    auto* clear = new QShortcut(QKeySequence(Qt::Key_Escape), search_);
    clear->setContext(Qt::WidgetShortcut);
    connect(clear, &QShortcut::activated, this, [this] {
        search_->clear();
        canvas_->setFocus();
    });

    connect(&searchWatcher_, &QFutureWatcher<std::shared_ptr<SliceSearchResult>>::finished, this,
            &TimelineView::searchFinished);
    updateMatchLabel();
}

TimelineView::~TimelineView() {
    delivery_->detach();
    indexRequest_.cancel();
    derivedRequest_.cancel();
    idleGapsRequest_.cancel();
    overlapRequest_.cancel();
    releaseBackground();
    if (searchCancel_) *searchCancel_ = true;
    searchWatcher_.waitForFinished();
}

void TimelineView::releaseBackground() {
    if (!std::exchange(holdsBackground_, false)) return;
    JobRunner::shared().releaseBackground();
}

void TimelineView::indexArrived(std::shared_ptr<const TimelineIndex> index) {
    indexPending_ = false;
    releaseBackground();
    if (!index || !trace_) {
        derivedPending_ = idleGapsPending_ = overlapPending_ = false;
        return;
    }
    canvas_->setIndex(index);
    emit ready();
    // A preview is replaced soon: its derived tracks would take the cores from the import.
    if (preview_) {
        derivedPending_ = idleGapsPending_ = overlapPending_ = false;
        return;
    }
    // Then the derived tracks, from the store's memory profile (the Memory page's too) and the GPU
    // streams' queue lengths (the GPU Utilization page's).
    std::shared_ptr<ResultStore> store = ResultStore::of(trace_);
    std::weak_ptr<ResultStore> weak = store;
    std::shared_ptr<ResultDelivery> delivery = delivery_;
    const unsigned generation = generation_;
    // Each is computed only when the machine holds it, as a page is (the same estimates, the
    // same admission); one that does not fit is named above the tracks instead.
    QStringList leftOut;
    uint64_t largest = 0;
    const uint64_t budget = store->runner().memoryBudget();
    const auto reserve = [&](AnalysisKind kind, const QString& what) -> std::optional<uint64_t> {
        const uint64_t bytes = estimateAnalysisCost(kind, *trace_).bytes;
        if (budget == 0 || bytes <= budget) return bytes;
        leftOut << what;
        largest = std::max(largest, bytes);
        return std::nullopt;
    };
    const std::optional<uint64_t> memoryTracksBytes =
        reserve(AnalysisKind::MemoryProfile, tr("memory and queue-length tracks"));
    const std::optional<uint64_t> idleGapsBytes = reserve(AnalysisKind::GpuIdleGaps, tr("GPU idle marks"));
    const std::optional<uint64_t> overlapBytes = reserve(AnalysisKind::Collectives, tr("communication overlap"));
    if (!leftOut.isEmpty())
        setLoadingNote(tr("Not computed, for lack of memory: %1. It would take up to %2, and %3 is free for "
                          "analyses (%4).")
                           .arg(leftOut.join(QStringLiteral(", ")), QString::fromStdString(formatBytes(largest)),
                                QString::fromStdString(formatBytes(budget)),
                                QString::fromStdString(analysisMemoryBudget().source)));
    derivedPending_ = memoryTracksBytes.has_value();
    idleGapsPending_ = idleGapsBytes.has_value();
    overlapPending_ = overlapBytes.has_value();
    if (memoryTracksBytes) {
        derivedRequest_ = store->request<DerivedPtr>(
            kMemoryTracksKey, JobPriority::Page, *memoryTracksBytes,
            [weak]() -> DerivedPtr {
                std::shared_ptr<ResultStore> s = weak.lock();
                if (!s) throw AnalysisCancelled();
                return TimelineDerivedTracks::of(s->trace(), memoryProfileOf(*s), queueLengthOf(*s).get());
            },
            [this, delivery, generation](std::shared_ptr<const DerivedPtr> derived, std::exception_ptr) {
                delivery->post([this, generation, derived] {
                    if (generation != generation_) return;
                    derivedPending_ = false;
                    if (!derived) return;
                    storeDerived_ = *derived;
                    showDerived();
                });
            });
    }
    // The query tracks of the saved layout: their queries run again, after the index.
    if (!savedQueryTracks_.empty()) {
        // The job holds the store: nothing else may (a timeline alone asks it only for requests).
        store->runner().submit(JobPriority::Page, 0, [store, delivery, generation, saved = savedQueryTracks_, this] {
            auto tracks = std::make_shared<std::vector<DerivedCounterTrack>>(
                runSavedQueryTracks(*store, saved, std::chrono::seconds(60)));
            delivery->post([this, generation, tracks] {
                if (generation != generation_) return;
                savedQueryTracks_.clear();  // they are query tracks now (saved as such)
                for (DerivedCounterTrack& t : *tracks) addQueryTrack(std::move(t));
            });
        });
    }
    if (idleGapsBytes) {
        idleGapsRequest_ = store->request<IdleGapsPtr>(
            kIdleGapsKey, JobPriority::Page, *idleGapsBytes,
            [weak]() -> IdleGapsPtr {
                std::shared_ptr<ResultStore> s = weak.lock();
                if (!s) throw AnalysisCancelled();
                return std::make_shared<const IdleGapIndex>(gpuUtilizationOf(*s));
            },
            [this, delivery, generation](std::shared_ptr<const IdleGapsPtr> gaps, std::exception_ptr) {
                delivery->post([this, generation, gaps] {
                    if (generation != generation_) return;
                    idleGapsPending_ = false;
                    if (gaps) canvas_->controller().setIdleGaps(*gaps);
                });
            });
    }
    if (overlapBytes) {
        overlapRequest_ = store->request<OverlapPtr>(
            kCommOverlapKey, JobPriority::Page, *overlapBytes,
            [weak]() -> OverlapPtr {
                std::shared_ptr<ResultStore> s = weak.lock();
                if (!s) throw AnalysisCancelled();
                return std::make_shared<const CommOverlapIndex>(*classificationOf(*s));
            },
            [this, delivery, generation](std::shared_ptr<const OverlapPtr> overlap, std::exception_ptr) {
                delivery->post([this, generation, overlap] {
                    if (generation != generation_) return;
                    overlapPending_ = false;
                    if (overlap) canvas_->controller().setCommOverlap(*overlap);
                });
            });
    }
}

void TimelineView::showDerived() {
    canvas_->controller().setDerivedTracks(
        queryTracks_.empty() ? storeDerived_ : TimelineDerivedTracks::with(storeDerived_.get(), queryTracks_));
}

void TimelineView::addQueryTrack(DerivedCounterTrack track) {
    if (!trace_ || track.process >= trace_->processes.size()) return;
    auto same = std::find_if(queryTracks_.begin(), queryTracks_.end(),
                             [&](const DerivedCounterTrack& d) { return d.name == track.name; });
    if (same != queryTracks_.end()) *same = std::move(track);
    else queryTracks_.push_back(std::move(track));
    // Before the store's tracks arrive the query tracks show alone; they join them after.
    showDerived();
    saveLayout();
    emit queryTracksChanged();
}

void TimelineView::removeQueryTrack(const std::string& name) {
    const auto gone = std::remove_if(queryTracks_.begin(), queryTracks_.end(),
                                     [&](const DerivedCounterTrack& d) { return d.name == name; });
    if (gone == queryTracks_.end()) return;
    queryTracks_.erase(gone, queryTracks_.end());
    showDerived();
    saveLayout();
    emit queryTracksChanged();
}

void TimelineView::setPreviewTrace(std::shared_ptr<const Trace> trace, const QString& note) {
    setTrace(std::move(trace));
    preview_ = trace_ != nullptr;
    setLoadingNote(preview_ ? note : QString());
}

void TimelineView::setLoadingNote(const QString& note) {
    loadingNote_->setText(note);
    loadingNote_->setVisible(!note.isEmpty());
}

QString TimelineView::note() const { return loadingNote_->isHidden() ? QString() : loadingNote_->text(); }

void TimelineView::setTrace(std::shared_ptr<const Trace> trace) {
    // After a preview, the window the user moved to stays, in the file's clock (both traces'
    // times are relative to their own origin); an untouched window fits the new trace.
    std::optional<std::pair<double, double>> keptWindow;
    if (preview_ && trace_ && trace && canvas_->controller().windowMoved()) {
        const double shift = double(trace_->originNs) - double(trace->originNs);
        const TimeAxis& axis = canvas_->controller().axis();
        keptWindow = {axis.begin() + shift, axis.end() + shift};
    }
    preview_ = false;
    setLoadingNote({});
    ++generation_;
    indexRequest_.cancel();
    derivedRequest_.cancel();
    idleGapsRequest_.cancel();
    overlapRequest_.cancel();
    indexPending_ = derivedPending_ = idleGapsPending_ = overlapPending_ = false;
    releaseBackground();
    if (searchCancel_) *searchCancel_ = true;
    trace_ = std::move(trace);
    storeDerived_.reset();
    const bool hadQueryTracks = !queryTracks_.empty();
    queryTracks_.clear();
    savedQueryTracks_.clear();
    if (hadQueryTracks) emit queryTracksChanged();
    matches_.clear();
    current_ = -1;
    canvas_->setTrace(trace_);
    if (trace_ && !layoutKey_.isEmpty()) {
        const QString saved = QSettings().value(layoutKey_).toString();
        if (!saved.isEmpty()) {
            restoringLayout_ = true;
            TimelineUserLayout layout = parseUserLayout(saved.toStdString(), *trace_);
            savedQueryTracks_ = std::move(layout.queryTracks);
            canvas_->controller().applyUserLayout(layout);
            restoringLayout_ = false;
        }
    }
    {
        const QSignalBlocker block(trackFilter_);  // the new trace starts with every track
        trackFilter_->clear();
    }
    if (keptWindow) canvas_->setVisibleRange(keptWindow->first, keptWindow->second);
    syncScrollBar();
    updateMatchLabel();
    if (!trace_) return;
    // The index at the highest priority; background analyses wait until it is there.
    JobRunner::shared().holdBackground();
    holdsBackground_ = true;
    indexPending_ = derivedPending_ = idleGapsPending_ = overlapPending_ = true;
    std::shared_ptr<ResultStore> store = ResultStore::of(trace_);
    std::shared_ptr<ResultDelivery> delivery = delivery_;
    const unsigned generation = generation_;
    indexRequest_ = store->request<IndexPtr>(
        kIndexKey, JobPriority::Interactive, 0,
        [trace = trace_]() -> IndexPtr {
            IndexPtr index = TimelineIndex::build(*trace, analysisCancelFlag());
            if (!index) throw AnalysisCancelled();
            return index;
        },
        [this, delivery, generation](std::shared_ptr<const IndexPtr> index, std::exception_ptr) {
            delivery->post([this, generation, index] {
                if (generation == generation_) indexArrived(index ? *index : nullptr);
            });
        });
    if (!search_->text().isEmpty()) startSearch();
}

void TimelineView::setSelection(TraceSelection* selection) {
    if (selection_) disconnect(selection_, nullptr, this, nullptr);
    TraceView::setSelection(selection);
    if (!selection_) return;
    connect(selection_, &TraceSelection::sliceSelected, this, [this](SliceRef s) {
        if (publishing_) return;
        canvas_->setSelectedSlice(s, true);
    });
    // A moment or a stretch picked on another page (the memory chart, an allocation in Details).
    connect(selection_, &TraceSelection::timeRequested, this,
            [this](qint64 t) { canvas_->controller().showMoment(TimeNs(t)); });
    connect(selection_, &TraceSelection::spanRequested, this,
            [this](qint64 b, qint64 e) { canvas_->controller().showSpan(TimeNs(b), TimeNs(e)); });
    connect(selection_, &TraceSelection::slicesHighlighted, this, [this](std::vector<SliceRef> slices, QString label) {
        TimelineHighlight h;
        for (SliceRef s : slices) h.refs.insert(TimelineHighlight::key(s));
        canvas_->setHighlight(std::move(h));
        matches_ = std::move(slices);
        if (trace_) {
            std::sort(matches_.begin(), matches_.end(), [&](SliceRef a, SliceRef b) {
                return trace_->tracks[a.track].slices.start[a.index] < trace_->tracks[b.track].slices.start[b.index];
            });
        }
        current_ = -1;
        updateMatchLabel();
        if (!label.isEmpty()) matchLabel_->setText(label);
        if (!matches_.empty()) goToMatch(0);
    });
}

void TimelineView::waitUntilReady() {
    QElapsedTimer waited;
    waited.start();
    while ((indexPending_ || derivedPending_ || idleGapsPending_ || overlapPending_) && waited.elapsed() < 600'000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(2);
    }
    searchWatcher_.waitForFinished();
    QCoreApplication::processEvents();  // deliver the watcher's finished signal
}

void TimelineView::focusSearch() {
    search_->setFocus();
    search_->selectAll();
}

void TimelineView::setSearchText(const QString& text, bool regex) {
    const QSignalBlocker block(regex_);
    regex_->setChecked(regex);
    search_->setText(text);
    startSearch();
}

void TimelineView::startSearch() {
    if (searchCancel_) *searchCancel_ = true;
    matches_.clear();
    current_ = -1;
    const QString text = search_->text();
    if (!trace_ || text.isEmpty()) {
        canvas_->setHighlight({});
        updateMatchLabel();
        return;
    }
    searchCancel_ = std::make_shared<std::atomic<bool>>(false);
    const SearchMode mode = regex_->isChecked() ? SearchMode::Regex : SearchMode::Substring;
    matchLabel_->setText(tr("searching…"));
    searchWatcher_.setFuture(runOnJobRunner(
        JobPriority::Interactive, [trace = trace_, query = text.toStdString(), mode, cancel = searchCancel_] {
            return std::make_shared<SliceSearchResult>(searchSlices(*trace, query, mode, cancel.get()));
        }));
}

void TimelineView::searchFinished() {
    auto result = searchWatcher_.result();
    if (!result || result->cancelled) return;
    matches_ = std::move(result->matches);
    current_ = -1;
    TimelineHighlight h;
    if (result->error.empty()) h.nameMatches = std::move(result->nameMatches);
    // A search with no hits still dims everything, which says "nothing here" at a glance.
    if (h.nameMatches.empty() && result->error.empty()) h.nameMatches.assign(1, 0);
    canvas_->setHighlight(std::move(h));
    updateMatchLabel(QString::fromStdString(result->error));
}

void TimelineView::updateMatchLabel(const QString& error) {
    const bool any = !matches_.empty();
    prev_->setEnabled(any);
    next_->setEnabled(any);
    if (!error.isEmpty()) {
        matchLabel_->setText(error);
        return;
    }
    if (search_->text().isEmpty() && !any) {
        matchLabel_->clear();
        return;
    }
    if (!any) matchLabel_->setText(tr("no matches"));
    else if (current_ < 0) matchLabel_->setText(tr("%1 matches").arg(matches_.size()));
    else matchLabel_->setText(tr("%1 of %2").arg(current_ + 1).arg(matches_.size()));
}

void TimelineView::nextMatch() {
    if (matches_.empty()) return;
    goToMatch(current_ + 1 >= int(matches_.size()) ? 0 : current_ + 1);
}

void TimelineView::previousMatch() {
    if (matches_.empty()) return;
    goToMatch(current_ <= 0 ? int(matches_.size()) - 1 : current_ - 1);
}

void TimelineView::goToMatch(int i) {
    current_ = i;
    canvas_->setSelectedSlice(matches_[size_t(i)], true);
    publishSelection(matches_[size_t(i)]);
    updateMatchLabel();
}

void TimelineView::publishSelection(SliceRef s) {
    if (!selection_) return;
    publishing_ = true;
    selection_->selectSlice(s);
    publishing_ = false;
}

void TimelineView::syncScrollBar() {
    const QSignalBlocker block(vscroll_);
    vscroll_->setRange(0, canvas_->maxScrollY());
    vscroll_->setPageStep(std::max(1, canvas_->height() - canvas_->controller().contentTop()));
    vscroll_->setSingleStep(18);
    vscroll_->setValue(canvas_->scrollY());
}

}  // namespace tracescope

namespace tracescope {

void TimelineView::setLayoutSource(const QString& path) {
    layoutKey_.clear();
    const QFileInfo info(path);
    if (!persistLayouts_ || path.isEmpty() || !info.exists()) return;
    const QString id = info.canonicalFilePath() + QLatin1Char('|') + QString::number(info.size()) + QLatin1Char('|') +
                       QString::number(info.lastModified().toMSecsSinceEpoch());
    layoutKey_ = QStringLiteral("timelineLayouts/") +
                 QString::fromLatin1(QCryptographicHash::hash(id.toUtf8(), QCryptographicHash::Sha1).toHex());
}

void TimelineView::saveLayout() {
    if (layoutKey_.isEmpty() || restoringLayout_ || !trace_) return;
    TimelineUserLayout layout = canvas_->controller().userLayout();
    for (const DerivedCounterTrack& q : queryTracks_) layout.queryTracks.push_back({q.name, q.query});
    // Saved query tracks whose queries have not run again yet stay saved.
    for (const SavedQueryTrack& q : savedQueryTracks_) layout.queryTracks.push_back(q);
    QSettings settings;
    if (layout.isDefault()) settings.remove(layoutKey_);
    else settings.setValue(layoutKey_, QString::fromStdString(serializeUserLayout(layout)));
}

void TimelineView::addBookmarkInteractively(qint64 time) {
    if (!trace_) return;
    TimelineController& ctl = canvas_->controller();
    bool ok = false;
    const QString label = QInputDialog::getText(this, tr("Add Bookmark"), tr("Label:"), QLineEdit::Normal,
                                                tr("Bookmark %1").arg(ctl.bookmarks().size() + 1), &ok);
    if (ok) ctl.addBookmark(time, label.toStdString());
}

TimelineController& TimelineView::controller() { return canvas_->controller(); }
const TimelineController& TimelineView::controller() const { return canvas_->controller(); }
bool TimelineView::isReady() const { return canvas_->hasIndex(); }
void TimelineView::setVisibleRange(double beginNs, double endNs) { canvas_->setVisibleRange(beginNs, endNs); }
void TimelineView::revealSlice(SliceRef slice) { canvas_->setSelectedSlice(slice, true); }
int TimelineView::headerWidth() const { return canvas_->controller().headerWidth(); }
void TimelineView::setHeaderWidth(int width) { canvas_->setHeaderWidth(width); }

void TimelineView::followWindowOf(const TimelineView& other, double shiftNs) {
    const TimeAxis& axis = other.controller().axis();
    if (headerWidth() != other.headerWidth()) setHeaderWidth(other.headerWidth());
    const double begin = axis.begin() + shiftNs;
    setVisibleRange(begin, begin + axis.nsPerPx() * controller().trackAreaWidth(canvas_->width()));
}

void TimelineView::setControlsAction(QAction* action) {
    // On the canvas only: in text fields '?' is a character.
    auto* question = new QShortcut(QKeySequence(Qt::Key_Question), canvas_);
    question->setContext(Qt::WidgetShortcut);
    connect(question, &QShortcut::activated, action, &QAction::trigger);
}

}  // namespace tracescope
