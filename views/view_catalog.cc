#include "views/view_catalog.h"

#include "views/collectives/collectives_view.h"
#include "views/flame/flame_view.h"
#include "views/gpu/gpu_util_view.h"
#include "views/memory/memory_profile_view.h"
#include "views/overview/overview_view.h"
#include "views/pipeline/input_pipeline_view.h"
#include "views/pipeline/tf_data_view.h"
#include "views/pod/compare_view.h"
#include "views/pod/pod_view.h"
#include "views/query/query_view.h"
#include "views/tables/kernel_stats_view.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/scope_tree_view.h"
#include "views/xla/xla_ops_view.h"

namespace tracescope {

std::vector<ViewFactory> analysisViewFactories() {
    return {
        {QStringLiteral("overview"), QObject::tr("Overview"), [](QWidget* p) -> TraceView* { return new OverviewView(p); }},
        {QStringLiteral("op-stats"), QObject::tr("Op Stats"), [](QWidget* p) -> TraceView* { return new OpStatsView(p); }},
        {QStringLiteral("kernel-stats"), QObject::tr("Kernel Stats"),
         [](QWidget* p) -> TraceView* { return new KernelStatsView(p); }},
        {QStringLiteral("gpu-util"), QObject::tr("GPU Utilization"),
         [](QWidget* p) -> TraceView* { return new GpuUtilView(p); }},
        {QStringLiteral("collectives"), QObject::tr("Collectives"),
         [](QWidget* p) -> TraceView* { return new CollectivesView(p); }},
        {QStringLiteral("xla-ops"), QObject::tr("XLA Ops"), [](QWidget* p) -> TraceView* { return new XlaOpsView(p); }, XlaOpsView::tabIds()},
        {QStringLiteral("flame"), QObject::tr("Flame Graph"), [](QWidget* p) -> TraceView* { return new FlameView(p); }},
        {QStringLiteral("input-pipeline"), QObject::tr("Input Pipeline"),
         [](QWidget* p) -> TraceView* { return new InputPipelineView(p); }},
        {QStringLiteral("memory"), QObject::tr("Memory Profile"),
         [](QWidget* p) -> TraceView* { return new MemoryProfileView(p); }},
        {QStringLiteral("tf-data"), QObject::tr("tf.data"), [](QWidget* p) -> TraceView* { return new TfDataView(p); }},
        {QStringLiteral("scopes"), QObject::tr("Scopes"), [](QWidget* p) -> TraceView* { return new ScopeTreeView(p); }},
        {QStringLiteral("pod"), QObject::tr("Pod"), [](QWidget* p) -> TraceView* { return new PodView(p); }},
        {QStringLiteral("compare"), QObject::tr("Compare"), [](QWidget* p) -> TraceView* { return new CompareView(p); }},
        {QStringLiteral("query"), QObject::tr("Query (SQL)"), [](QWidget* p) -> TraceView* { return new QueryView(p); }},
    };
}

}  // namespace tracescope
