// Progress and cancellation of the analyses (model/analysis/analysis_progress.h) on a
// synthetic training trace of a million slices: the fraction only rises and ends at 1, a
// step that visits every slice once ends at its end, and a cancelled analysis throws
// AnalysisCancelled promptly.
#include "model/analysis/analysis_progress.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/overview.h"
#include "tests/bench/synthetic_ml_trace.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace tracescope;

namespace {

uint64_t visitsOf(const Trace& t) {
    const TraceCounts c = t.counts();
    return c.slices + c.asyncSlices;
}

}  // namespace

class AnalysisProgressTest : public QObject {
    Q_OBJECT
    std::unique_ptr<Trace> trace_;

private slots:
    void initTestCase() {
        trace_ = bench::buildSyntheticMlTrace(1'000'000);
        QVERIFY(visitsOf(*trace_) > 500'000);
    }

    // classifyTrace visits each thread and async slice once: a step over it ends within one
    // report (65536 visits) of its end, and never past it.
    void stepEndsAtItsEnd() {
        const uint64_t slices = visitsOf(*trace_);
        AnalysisProgress progress(slices);
        {
            const AnalysisProgressScope scope(&progress);
            analysisStep("Classifying slices", 0, 0.5);
            QCOMPARE(progress.stepName(), std::string("Classifying slices"));
            (void)classifyTrace(*trace_);
        }
        QVERIFY2(progress.fraction() <= 0.5, qPrintable(QString::number(progress.fraction())));
        const double lowest = 0.5 * (1.0 - 65536.0 / double(slices)) - 1e-4;
        QVERIFY2(progress.fraction() >= lowest, qPrintable(QString::number(progress.fraction())));
        progress.finish();
        QCOMPARE(progress.fraction(), 1.0);
    }

    // Read from another thread while an overview runs: the fraction never falls, passes
    // through values between 0 and 1, and is 1 at the end.
    void fractionRisesMonotonically() {
        AnalysisProgress progress(visitsOf(*trace_));
        std::atomic<bool> done{false};
        std::thread worker([&] {
            const AnalysisProgressScope scope(&progress);
            analysisStep("Classifying slices", 0, 0.2);
            const ClassifiedTrace ct = classifyTrace(*trace_);
            analysisStep("Overview", 0.2, 0.6);
            (void)computeOverview(ct, {});
            analysisStep("Kernel stats", 0.6, 1);
            (void)computeKernelStats(ct);
            progress.finish();
            done = true;
        });
        std::vector<double> seen;
        while (!done) {
            seen.push_back(progress.fraction());
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        worker.join();
        seen.push_back(progress.fraction());
        for (size_t i = 1; i < seen.size(); ++i) QVERIFY2(seen[i] >= seen[i - 1], qPrintable(QString::number(i)));
        QCOMPARE(seen.back(), 1.0);
        std::vector<double> between;
        for (double f : seen)
            if (f > 0 && f < 1 && (between.empty() || between.back() != f)) between.push_back(f);
        QVERIFY2(between.size() >= 3, qPrintable(QString::number(between.size())));
    }

    // Cancelled midway, the analysis throws AnalysisCancelled within a second, before its end.
    void cancelStopsPromptly() {
        AnalysisProgress progress(visitsOf(*trace_));
        std::atomic<int> outcome{0};  // 1 finished, 2 cancelled
        std::thread worker([&] {
            const AnalysisProgressScope scope(&progress);
            try {
                analysisStep("Kernel stats", 0, 1);
                for (int pass = 0; pass < 50; ++pass) (void)computeKernelStats(*trace_);  // far longer than the wait below
                outcome = 1;
            } catch (const AnalysisCancelled&) {
                outcome = 2;
            }
        });
        while (progress.fraction() == 0.0 && outcome == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const auto cancelledAt = std::chrono::steady_clock::now();
        progress.cancel();
        worker.join();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - cancelledAt).count();
        QCOMPARE(outcome.load(), 2);
        QVERIFY2(seconds < 1.0, qPrintable(QString::number(seconds)));
    }

    // Without a scope (the CLI), a cancelled progress elsewhere changes nothing.
    void noScopeNoCancel() {
        AnalysisProgress progress(visitsOf(*trace_));
        progress.cancel();
        const KernelStatsResult r = computeKernelStats(*trace_);
        QVERIFY(r.kernelCount > 0);
        QCOMPARE(progress.fraction(), 0.0);
    }
};

QTEST_GUILESS_MAIN(AnalysisProgressTest)
#include "tst_analysis_progress.moc"
