// The key of the tf.data pipeline graph: what the node borders and edge styles mean.
#pragma once

#include <QWidget>

namespace tracescope {

class PipelineGraphLegend : public QWidget {
    Q_OBJECT
public:
    explicit PipelineGraphLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override;
    // Narrow windows clip the key rather than widen the page.
    QSize minimumSizeHint() const override { return {200, sizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace tracescope
