package priorities

// FunctionShapePoint is one point of a piecewise-linear scoring function.
type FunctionShapePoint struct {
	// Utilization is the x coordinate.
	Utilization int64
	// Score is the y coordinate.
	Score int64
}

// FunctionShape is a piecewise-linear function given by its points in
// increasing utilization, as upstream's helper.FunctionShape.
type FunctionShape []FunctionShapePoint

// Score evaluates the function at p with upstream's integer arithmetic:
// the first point's score left of it, the last point's right of it, and
// in between the line through the neighbouring points, each step
// truncated by integer division. The shape must not be empty.
func (shape FunctionShape) Score(p int64) int64 {
	for i := range shape {
		if p <= shape[i].Utilization {
			if i == 0 {
				return shape[0].Score
			}
			return shape[i-1].Score + (shape[i].Score-shape[i-1].Score)*(p-shape[i-1].Utilization)/(shape[i].Utilization-shape[i-1].Utilization)
		}
	}
	return shape[len(shape)-1].Score
}

// BuildBrokenLinearFunction returns shape.Score as a function, as
// upstream's helper.BuildBrokenLinearFunction.
func BuildBrokenLinearFunction(shape FunctionShape) func(int64) int64 {
	return shape.Score
}
