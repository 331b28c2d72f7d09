// The result store: each result computed once however many ask at once (blocking and
// asynchronous), nested results without deadlock on a single thread, cancellation when nobody
// wants a result any more, a caller giving up while others still want it, a failing
// computation, the least recently used dropped past the limit and computed again, one store
// per trace, each result's own CPU time.
#include "model/results/result_store.h"
#include "model/trace/threads.h"

#include "wait_until.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace tracescope {
// A result of a given size, for the limit.
struct Blob {
    uint64_t bytes = 0;
};
uint64_t resultBytes(const Blob& b) { return b.bytes; }
}  // namespace tracescope

using namespace tracescope;
using tracescope::testing::waitUntil;

namespace {

// Visits "slices" (analysisTick) until `stop`, checking the current progress as analyses do.
int spinUntil(const std::atomic<bool>& stop) {
    while (!stop.load()) {
        for (int i = 0; i < 0x10000; ++i) analysisTick();
        std::this_thread::yield();
    }
    return 7;
}

std::shared_ptr<const Trace> emptyTrace() { return std::make_shared<Trace>(); }

// Busy for `seconds` of this thread's CPU time.
void burnCpu(double seconds) {
    const double end = threadCpuSeconds() + seconds;
    volatile uint64_t sink = 0;
    while (threadCpuSeconds() < end)
        for (int i = 0; i < 1000; ++i) sink = sink + uint64_t(i);
}

}  // namespace

class ResultStoreTest : public QObject {
    Q_OBJECT
private slots:
    void oneStorePerTrace() {
        auto trace = emptyTrace();
        auto a = ResultStore::of(trace), b = ResultStore::of(trace);
        QVERIFY(a == b);
        QVERIFY(ResultStore::of(emptyTrace()) != a);
        QVERIFY(&a->trace() == trace.get());
    }

    // Released elsewhere: the trace and its results are freed on a runner thread, not the
    // caller's; a trace someone else still holds stays, and goes when they let go.
    void releasedElsewhere() {
        JobRunner runner(2);
        std::atomic<std::thread::id> traceFreedOn{}, resultFreedOn{};
        auto trace = std::shared_ptr<const Trace>(new Trace, [&](const Trace* t) {
            traceFreedOn = std::this_thread::get_id();
            delete t;
        });
        auto store = ResultStore::of(trace, &runner);
        std::shared_ptr<const int> result = store->get<int>({"held", ""}, [] { return 1; });
        auto resultGuard = std::shared_ptr<const int>(new int(2), [&](const int* v) {
            resultFreedOn = std::this_thread::get_id();
            delete v;
        });
        store->get<std::shared_ptr<const int>>({"guard", ""}, [&] { return resultGuard; });
        resultGuard.reset();
        result.reset();
        QVERIFY(ResultStore::existing(trace.get()) == store);
        std::shared_ptr<const Trace> otherHolder = trace;
        ResultStore::releaseElsewhere(std::move(store), std::move(trace));
        QVERIFY(!trace && !store);
        QVERIFY(waitUntil([&] { return runner.running() == 0 && runner.queued() == 0; }));
        QCOMPARE(traceFreedOn.load(), std::thread::id{});  // still held here
        QVERIFY(resultFreedOn.load() != std::this_thread::get_id());  // the store went with the job
        QVERIFY(resultFreedOn.load() != std::thread::id{});
        QVERIFY(!ResultStore::existing(otherHolder.get()));  // gone with its results
        ResultStore::releaseElsewhere(nullptr, std::move(otherHolder));
        QVERIFY(waitUntil([&] { return traceFreedOn.load() != std::thread::id{}; }));
        QVERIFY(traceFreedOn.load() != std::this_thread::get_id());
    }

    // Eight threads ask at once: one computation, one shared value.
    void blockingAskersShareOneComputation() {
        JobRunner runner(2);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<int> runs{0};
        auto compute = [&] {
            ++runs;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            return 42;
        };
        std::vector<std::future<std::shared_ptr<const int>>> got;
        for (int i = 0; i < 8; ++i)
            got.push_back(std::async(std::launch::async, [&] { return store->get<int>({"answer", ""}, compute); }));
        std::shared_ptr<const int> first = got[0].get();
        for (size_t i = 1; i < got.size(); ++i) QVERIFY(got[i].get() == first);
        QCOMPARE(*first, 42);
        QCOMPARE(runs.load(), 1);
        QCOMPARE(store->computations("answer"), uint64_t(1));
        QVERIFY(store->holds({"answer", ""}));
        QVERIFY(!store->holds({"answer", "other options"}));
    }

    // Requests before, during and after: one computation; each `done` gets the value once.
    void requestsShareOneComputation() {
        JobRunner runner(2);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<bool> release{false};
        std::atomic<int> runs{0}, delivered{0};
        auto compute = [&] {
            ++runs;
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 5;
        };
        auto done = [&](std::shared_ptr<const int> v, std::exception_ptr e) {
            if (v && *v == 5 && !e) ++delivered;
        };
        ResultRequest r1 = store->request<int>({"five", ""}, JobPriority::Page, 0, compute, done);
        ResultRequest r2 = store->request<int>({"five", ""}, JobPriority::Page, 0, compute, done);
        QVERIFY(r1.progress() && r1.progress() == r2.progress());
        release = true;
        QVERIFY(waitUntil([&] { return delivered == 2; }));
        ResultRequest r3 = store->request<int>({"five", ""}, JobPriority::Page, 0, compute, done);  // held: at once
        QCOMPARE(delivered.load(), 3);
        QVERIFY(!r3.progress());
        QCOMPARE(runs.load(), 1);
        QCOMPARE(*store->get<int>({"five", ""}, compute), 5);
        QCOMPARE(runs.load(), 1);
    }

    // One thread: the outer result (running) needs the inner one, queued behind it at a lower
    // priority; get() takes it off the queue and computes it there instead of waiting forever.
    void nestedResultsOnOneThread() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<int> innerRuns{0};
        auto inner = [&] {
            ++innerRuns;
            return 3;
        };
        std::atomic<int> result{0};
        std::atomic<bool> gate{false};
        // Holds the thread until both requests are queued.
        runner.submit(JobPriority::Interactive, 0, [&] {
            while (!gate) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        QVERIFY(waitUntil([&] { return runner.running() == 1; }));
        ResultRequest innerRequest = store->request<int>({"inner", ""}, JobPriority::Background, 0, inner,
                                                         [](std::shared_ptr<const int>, std::exception_ptr) {});
        ResultRequest outer = store->request<int>(
            {"outer", ""}, JobPriority::Page, 0,
            [&] {
                return *store->get<int>({"inner", ""}, inner) * 2;
            },
            [&](std::shared_ptr<const int> v, std::exception_ptr) { result = v ? *v : -1; });
        gate = true;
        QVERIFY(waitUntil([&] { return result != 0; }));
        QCOMPARE(result.load(), 6);
        QVERIFY(waitUntil([&] { return runner.running() == 0 && runner.queued() == 0; }));
        QCOMPARE(innerRuns.load(), 1);
        QCOMPARE(store->computations("inner"), uint64_t(1));
    }

    // A result computed inside another counts its CPU under its own name, not the outer one's.
    void ownCpuTimeByName() {
        auto store = ResultStore::of(emptyTrace());
        const int v = *store->get<int>({"outer", ""}, [&] {
            burnCpu(0.02);
            const int inner = *store->get<int>({"inner", ""}, [] {
                burnCpu(0.15);
                return 2;
            });
            burnCpu(0.02);
            return inner + 1;
        });
        QCOMPARE(v, 3);
        const auto spent = store->cpuSecondsByName();
        QCOMPARE(spent.size(), size_t(2));
        QCOMPARE(spent[0].first, std::string("inner"));  // most first
        QVERIFY2(spent[0].second >= 0.15, std::to_string(spent[0].second).c_str());
        QCOMPARE(spent[1].first, std::string("outer"));
        QVERIFY2(spent[1].second >= 0.04 && spent[1].second < 0.15, std::to_string(spent[1].second).c_str());
    }

    // The only request is withdrawn while the computation runs: it is cancelled, nothing is
    // kept, `done` is never called, and the next request computes it again.
    void withdrawnRequestCancelsTheComputation() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<bool> started{false}, never{false}, called{false};
        {
            ResultRequest r = store->request<int>(
                {"slow", ""}, JobPriority::Page, 0,
                [&] {
                    started = true;
                    return spinUntil(never);
                },
                [&](std::shared_ptr<const int>, std::exception_ptr) { called = true; });
            QVERIFY(waitUntil([&] { return started.load(); }));
        }  // withdrawn here
        QVERIFY(waitUntil([&] { return runner.running() == 0; }));
        QVERIFY(!called);
        QVERIFY(!store->holds({"slow", ""}));
        QCOMPARE(store->computations("slow"), uint64_t(0));
        std::atomic<int> value{0};
        ResultRequest again = store->request<int>(
            {"slow", ""}, JobPriority::Page, 0, [] { return 9; },
            [&](std::shared_ptr<const int> v, std::exception_ptr) { value = *v; });
        QVERIFY(waitUntil([&] { return value == 9; }));
    }

    // A queued request withdrawn never runs.
    void withdrawnWhileQueuedNeverRuns() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<bool> gate{false}, ran{false};
        runner.submit(JobPriority::Interactive, 0, [&] {
            while (!gate) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        QVERIFY(waitUntil([&] { return runner.running() == 1; }));
        {
            ResultRequest r = store->request<int>(
                {"queued", ""}, JobPriority::Page, 0,
                [&] {
                    ran = true;
                    return 1;
                },
                [](std::shared_ptr<const int>, std::exception_ptr) {});
            QCOMPARE(runner.queued(), size_t(1));
        }
        QCOMPARE(runner.queued(), size_t(0));
        gate = true;
        QVERIFY(waitUntil([&] { return runner.running() == 0; }));
        QVERIFY(!ran);
    }

    // A blocking caller computing a result gives up (its progress is cancelled) while a request
    // also wants it: the computation starts again on the runner and the request gets the value.
    void callerGivesUpOthersStillWant() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<bool> stop{false};
        std::atomic<int> runs{0};
        auto compute = [&] {
            if (++runs == 1) return spinUntil(stop);  // the first run spins until cancelled
            return 11;
        };
        AnalysisProgress callerProgress;
        std::atomic<bool> callerCancelled{false};
        std::thread caller([&] {
            const AnalysisProgressScope scope(&callerProgress);
            try {
                store->get<int>({"shared", ""}, compute);
            } catch (const AnalysisCancelled&) {
                callerCancelled = true;
            }
        });
        QVERIFY(waitUntil([&] { return runs == 1; }));
        std::atomic<int> value{0};
        ResultRequest r =
            store->request<int>({"shared", ""}, JobPriority::Page, 0, compute,
                                [&](std::shared_ptr<const int> v, std::exception_ptr) { value = v ? *v : -1; });
        callerProgress.cancel();
        caller.join();
        QVERIFY(callerCancelled);
        QVERIFY(waitUntil([&] { return value != 0; }));
        QCOMPARE(value.load(), 11);
        QCOMPARE(store->computations("shared"), uint64_t(1));
    }

    // A blocking waiter whose own progress is cancelled stops waiting; the computation goes on.
    void waiterGivesUp() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<bool> release{false}, started{false};
        auto compute = [&] {
            started = true;
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 4;
        };
        auto first = std::async(std::launch::async, [&] { return *store->get<int>({"four", ""}, compute); });
        QVERIFY(waitUntil([&] { return started.load(); }));
        AnalysisProgress waiterProgress;
        auto waiter = std::async(std::launch::async, [&] {
            const AnalysisProgressScope scope(&waiterProgress);
            try {
                store->get<int>({"four", ""}, compute);
                return false;
            } catch (const AnalysisCancelled&) {
                return true;
            }
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        waiterProgress.cancel();
        QVERIFY(waiter.get());
        release = true;
        QCOMPARE(first.get(), 4);
        QCOMPARE(store->computations("four"), uint64_t(1));
    }

    // A computation that throws: every asker gets the exception, nothing is kept, the next
    // request tries again.
    void failingComputation() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<int> attempts{0};
        auto compute = [&]() -> int {
            if (++attempts == 1) throw std::runtime_error("no such thing");
            return 2;
        };
        std::atomic<bool> gotError{false};
        ResultRequest r = store->request<int>({"flaky", ""}, JobPriority::Page, 0, compute,
                                              [&](std::shared_ptr<const int> v, std::exception_ptr e) {
                                                  try {
                                                      if (e) std::rethrow_exception(e);
                                                  } catch (const std::runtime_error& err) {
                                                      gotError = !v && std::string(err.what()) == "no such thing";
                                                  }
                                              });
        QVERIFY(waitUntil([&] { return gotError.load(); }));
        QVERIFY(!store->holds({"flaky", ""}));
        QCOMPARE(*store->get<int>({"flaky", ""}, compute), 2);
        QCOMPARE(store->computations("flaky"), uint64_t(1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error,
                                 store->get<int>({"broken", ""}, []() -> int { throw std::logic_error("bad"); }));
    }

    // Limit 250 bytes, results of 100: asking a, b, a, c drops b (least recently used); asked
    // again, b is computed again. Its earlier holders keep their copy.
    void leastRecentlyUsedDropped() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        store->setMemoryLimit(250);
        std::map<std::string, int> runs;
        auto blob = [&](const std::string& name) {
            return [&, name] {
                ++runs[name];
                return Blob{100};
            };
        };
        std::shared_ptr<const Blob> a = store->get<Blob>({"a", ""}, blob("a"));
        std::shared_ptr<const Blob> b = store->get<Blob>({"b", ""}, blob("b"));
        QCOMPARE(store->heldBytes(), uint64_t(200));
        QVERIFY(store->get<Blob>({"a", ""}, blob("a")) == a);  // used again: now the newest
        store->get<Blob>({"c", ""}, blob("c"));
        QCOMPARE(store->dropped(), uint64_t(1));
        QVERIFY(store->holds({"a", ""}));
        QVERIFY(!store->holds({"b", ""}));
        QVERIFY(store->holds({"c", ""}));
        QCOMPARE(store->heldBytes(), uint64_t(200));
        QCOMPARE(b->bytes, uint64_t(100));
        std::shared_ptr<const Blob> b2 = store->get<Blob>({"b", ""}, blob("b"));
        QVERIFY(b2 != b);
        QCOMPARE(runs["b"], 2);
        QCOMPARE(runs["a"], 1);
    }

    // A request at a higher priority moves a queued computation up.
    void higherPriorityMovesItUp() {
        JobRunner runner(1);
        auto store = ResultStore::of(emptyTrace(), &runner);
        std::atomic<bool> gate{false};
        std::mutex m;
        std::vector<std::string> order;
        auto note = [&](const std::string& n) {
            return [&, n] {
                std::lock_guard lock(m);
                order.push_back(n);
                return 0;
            };
        };
        auto ignore = [](std::shared_ptr<const int>, std::exception_ptr) {};
        runner.submit(JobPriority::Interactive, 0, [&] {
            while (!gate) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        QVERIFY(waitUntil([&] { return runner.running() == 1; }));
        ResultRequest bg = store->request<int>({"later", ""}, JobPriority::Background, 0, note("later"), ignore);
        ResultRequest page = store->request<int>({"page", ""}, JobPriority::Page, 0, note("page"), ignore);
        ResultRequest up = store->request<int>({"later", ""}, JobPriority::Interactive, 0, note("later"), ignore);
        gate = true;
        QVERIFY(waitUntil([&] {
            std::lock_guard lock(m);
            return order.size() == 2;
        }));
        QCOMPARE(order, (std::vector<std::string>{"later", "page"}));
    }
};

QTEST_GUILESS_MAIN(ResultStoreTest)
#include "tst_result_store.moc"
