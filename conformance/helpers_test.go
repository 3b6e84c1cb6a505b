package conformance

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

func regressionSnapshot() (*cluster.Snapshot, error) {
	return cluster.NewSnapshot([]*api.Node{{ObjectMeta: api.ObjectMeta{Name: "n"}}}, nil)
}
