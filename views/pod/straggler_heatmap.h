// The straggler heat map: one row per worker, one column per step, each cell coloured by
// how much longer than the step's median worker that worker took (white: the median or
// faster, deep red: +50% or more). Hover for the numbers; click to open the cell.
#pragma once

#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

namespace tracescope {

struct HeatmapData {
    QStringList workers;
    QStringList steps;
    // durations[worker][step] in ns; nullopt where the worker has no such step.
    std::vector<std::vector<std::optional<qint64>>> durations;
    std::vector<qint64> medians;  // per step
};

class StragglerHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit StragglerHeatmap(QWidget* parent = nullptr);
    void setData(HeatmapData data);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellClicked(int worker, int step);

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    bool event(QEvent*) override;

private:
    HeatmapData data_;
    QRect grid() const;
    bool cellAt(const QPoint& p, int& worker, int& step) const;
    QString cellText(int worker, int step) const;
};

}  // namespace tracescope
