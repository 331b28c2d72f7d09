// The stragglers heat map of a run: one row per rank, one column per collective matched across
// the ranks (in the order they were made), each cell coloured by how long after the first rank
// that rank arrived (background: with the first, deep red: the largest skew of the run; hatched:
// the rank made no such call). Hover for the figures; click to show the call in the timeline.
// Thousands of ranks or collectives are drawn as one picture of at most the grid's pixels, each
// the latest of the cells it covers, so the painting does not grow with the grid.
#pragma once

#include "model/results/run_collectives.h"

#include <QImage>
#include <QWidget>

#include <memory>

namespace tracescope {

class CollectiveWaitHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit CollectiveWaitHeatmap(QWidget* parent = nullptr);
    void setData(std::shared_ptr<const RunCollectives> data);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The tooltip of a cell (rank index, collective index), as shown on hover.
    QString cellText(size_t rank, size_t collective) const;

signals:
    void cellClicked(int rank, int collective);

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    bool event(QEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void changeEvent(QEvent*) override;

private:
    std::shared_ptr<const RunCollectives> data_;
    std::vector<TimeNs> earliest_;  // per collective: the first rank's arrival
    TimeNs scaleNs_ = 0;            // the deepest colour: the largest skew
    QImage picture_;                // rows x columns, or fewer when the grid is larger
    bool pictureDark_ = false;
    QRect grid() const;
    bool cellAt(const QPoint& p, size_t& rank, size_t& collective) const;
    QString columnLabel(size_t collective) const;
    void drawPicture();
};

}  // namespace tracescope
