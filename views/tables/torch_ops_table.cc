#include "views/tables/torch_ops_table.h"

#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/wrapping_label.h"

#include <QCheckBox>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace tracescope {

namespace {

using Item = TorchOpsTable::Item;
using Model = RowTableModel<Item>;

QVariant ns(TimeNs v) { return QVariant(qint64(v)); }

std::vector<Model::Column> torchColumns() {
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    return {
        {{QObject::tr("Name"), ColumnKind::Text, QObject::tr("Event name: op, record_function annotation, CUDA runtime "
                                                             "call, or (device rows) a kernel / memcpy / memset"),
          true},
         [q](const Item& i) { return QVariant(q(i.row.name)); }},
        {{QObject::tr("# of Calls"), ColumnKind::Integer, {}}, [](const Item& i) { return QVariant(qint64(i.row.calls)); }},
        {{QObject::tr("Self CPU %"), ColumnKind::Percent, QObject::tr("Self CPU / the sum of Self CPU over all rows")},
         [](const Item& i) { return QVariant(i.row.selfCpuPercent); }},
        {{QObject::tr("Self CPU"), ColumnKind::Duration,
          QObject::tr("Duration minus the durations of direct CPU-side children (runtime calls included), as "
                      "torch.profiler computes it")},
         [](const Item& i) { return ns(i.row.selfCpuNs); }},
        {{QObject::tr("CPU total %"), ColumnKind::Percent, QObject::tr("CPU total / the sum of Self CPU over all rows")},
         [](const Item& i) { return QVariant(i.row.cpuTotalPercent); }},
        {{QObject::tr("CPU total"), ColumnKind::Duration, QObject::tr("Sum of the durations of all calls")},
         [](const Item& i) { return ns(i.row.cpuTotalNs); }},
        {{QObject::tr("CPU time avg"), ColumnKind::Duration, QObject::tr("CPU total / calls")},
         [](const Item& i) { return QVariant(qint64(std::llround(i.row.cpuAvgNs()))); }},
        {{QObject::tr("Self CUDA"), ColumnKind::Duration,
          QObject::tr("GPU time launched by runtime calls directly under the event (matched by correlation id); a "
                      "device row's own GPU time")},
         [](const Item& i) { return ns(i.row.selfCudaNs); }},
        {{QObject::tr("Self CUDA %"), ColumnKind::Percent, QObject::tr("Self CUDA / the GPU time of all device rows")},
         [](const Item& i) { return QVariant(i.row.selfCudaPercent); }},
        {{QObject::tr("CUDA total"), ColumnKind::Duration, QObject::tr("GPU time launched anywhere below the event")},
         [](const Item& i) { return ns(i.row.cudaTotalNs); }},
        {{QObject::tr("CUDA time avg"), ColumnKind::Duration, QObject::tr("CUDA total / calls")},
         [](const Item& i) { return QVariant(qint64(std::llround(i.row.cudaAvgNs()))); }},
        {{QObject::tr("Input Shapes"), ColumnKind::Text, QObject::tr("The calls' \"Input Dims\" (record_shapes=True)")},
         [q](const Item& i) { return QVariant(q(i.row.inputShapes)); }},
        {{QObject::tr("Stack"), ColumnKind::Text, QObject::tr("The top frames of the calls' stack, innermost first")},
         [q](const Item& i) { return QVariant(q(i.row.stack)); }},
    };
}

}  // namespace

TorchOpsTable::TorchOpsTable(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    summary_ = new WrappingLabel(this);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);  // at the top also when it is alone
    layout->addWidget(summary_);

    table_ = new TablePage(this);
    byShape_ = new QCheckBox(tr("Group by input shape"));
    byShape_->setToolTip(tr("key_averages(group_by_input_shape=True): one row per name and \"Input Dims\""));
    stackFrames_ = new QSpinBox;
    stackFrames_->setRange(0, 20);
    stackFrames_->setPrefix(tr("Group by stack: "));
    stackFrames_->setSpecialValueText(tr("Group by stack: off"));
    stackFrames_->setToolTip(tr("key_averages(group_by_stack_n=N): one row per name and top N stack frames"));
    table_->addToolbarWidget(byShape_);
    table_->addToolbarWidget(stackFrames_);
    table_->setFilterColumns({Name, InputShapes, Stack}, tr("Filter by name, shape or frame"));
    table_->setExportName(QStringLiteral("torch_ops.csv"));
    table_->setElasticColumn(Name, 220);
    model_ = new Model(torchColumns(), this);
    table_->setSourceModel(model_, CpuTotal, Qt::DescendingOrder);
    layout->addWidget(table_, 1);

    connect(byShape_, &QCheckBox::toggled, this, &TorchOpsTable::optionsChanged);
    connect(stackFrames_, &QSpinBox::valueChanged, this, &TorchOpsTable::optionsChanged);
    connect(table_, &TablePage::sourceRowActivated, this, [this](int row) {
        if (row >= 0 && row < model_->rowCount()) emit rowActivated(model_->row(row).resultIndex);
    });
}

TorchOpsOptions TorchOpsTable::options() const {
    TorchOpsOptions o;
    o.groupByInputShapes = byShape_->isChecked();
    o.groupByStackFrames = size_t(stackFrames_->value());
    return o;
}

void TorchOpsTable::setResult(const TorchOpsResult& r) {
    std::vector<Item> items;
    for (size_t i = 0; i < r.rows.size() && items.size() < kMaxTableRows; ++i) items.push_back({r.rows[i], i});
    const size_t shown = items.size();
    model_->setRows(std::move(items));
    table_->view()->setColumnHidden(InputShapes, !r.options.groupByInputShapes);
    table_->view()->setColumnHidden(Stack, r.options.groupByStackFrames == 0);
    byShape_->setEnabled(r.hasInputShapes);
    stackFrames_->setEnabled(r.hasStacks);
    table_->view()->sortByColumn(CpuTotal, Qt::DescendingOrder);
    table_->fitColumns();
    if (!r.unavailable.empty() || r.rows.empty()) {
        byShape_->setEnabled(false);
        stackFrames_->setEnabled(false);
        const QString why = !r.unavailable.empty()
                                ? tr("It is %1.").arg(QString::fromStdString(r.unavailable).toHtmlEscaped())
                                : tr("It has no PyTorch events: the table needs the cpu_op, user_annotation or "
                                     "cuda_runtime events of a Kineto trace.");
        summary_->setText(tr("<b>PyTorch (key_averages)</b>: not available for this trace. %1").arg(why));
        table_->hide();  // no columns of nothing
        return;
    }
    table_->show();
    QString text = tr("<b>PyTorch (key_averages)</b>: the numbers of torch.profiler's "
                      "<tt>prof.key_averages().table()</tt>. Self CPU time total %1, Self CUDA time total %2; "
                      "%3 rows. Double-click a row to highlight its calls in the timeline.")
                       .arg(formatDuration(r.totalSelfCpuNs), formatDuration(r.totalSelfCudaNs),
                            formatCount(qint64(r.rows.size())));
    if (shown < r.rows.size())
        text += tr(" <b>The table shows the %1 with the most CPU time</b>; <tt>tracescope-cli torch-ops</tt> lists all.")
                    .arg(formatCount(qint64(shown)));
    summary_->setText(text);
}

void TorchOpsTable::clear() {
    model_->setRows({});
    summary_->clear();
}

bool TorchOpsTable::selectResultRow(size_t resultIndex) {
    const auto& rows = model_->allRows();
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].resultIndex == resultIndex) return table_->selectSourceRow(int(i));
    return false;
}

}  // namespace tracescope
