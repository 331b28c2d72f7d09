// A directed graph of boxes with text, laid out top-down by Graphviz dot (graph_layout.h) and
// drawn on a QGraphicsScene: wheel + Ctrl (or the +/- keys) zooms, dragging pans, clicking a box
// reports it. Knows nothing about traces: the tf.data page gives it nodes and edges.
#pragma once

#include <QColor>
#include <QGraphicsView>
#include <QString>
#include <QStringList>

#include <vector>

namespace tracescope {

struct PipelineGraphNode {
    enum class Style { Blocking, Bottleneck, NonBlocking };
    QString title;      // bold first line
    QStringList lines;  // the figures, one per line
    QString toolTip;
    Style style = Style::Blocking;
    QColor fill;  // the box's fill; invalid: the palette's base
};

struct PipelineGraphEdge {
    int from = 0;  // parent (consumer)
    int to = 0;    // child (producer of its input)
    bool critical = false;
};

class PipelineGraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit PipelineGraphView(QWidget* parent = nullptr);

    void setGraph(std::vector<PipelineGraphNode> nodes, std::vector<PipelineGraphEdge> edges);
    // Outlines one node as the selection (-1: none) and scrolls it into view.
    void setSelectedNode(int node);
    int selectedNode() const { return selected_; }
    int nodeCount() const { return int(nodes_.size()); }
    // The node's box in scene coordinates (for tests).
    QRectF nodeRect(int node) const;
    bool laidOutByGraphviz() const { return byGraphviz_; }
    double zoom() const { return zoom_; }

public slots:
    void zoomIn();
    void zoomOut();
    void resetZoom();  // 100 %
    // The whole graph in view (never above 100 %, nor below a readable size). A new graph is
    // fitted, and kept fitted as the view resizes, until the user zooms.
    void fitToView();

signals:
    void nodeClicked(int node);
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    // A theme switch: the scene's items hold the old palette's colours, so they are built again.
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void setZoom(double zoom);
    std::vector<PipelineGraphNode> nodes_;
    std::vector<PipelineGraphEdge> edges_;
    std::vector<QRectF> rects_;
    std::vector<class QGraphicsItem*> items_;
    int selected_ = -1;
    double zoom_ = 1.0;
    bool autoFit_ = true;  // until the user zooms
    bool byGraphviz_ = false;
    QPoint pressPos_;
};

}  // namespace tracescope
